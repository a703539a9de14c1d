// Which bind addresses keep the /v1 API on this computer. Its own module so that the desk's listener rule
// does not load the whole listener (node:http and every route) into the admin CLI.
import { isIP } from 'node:net';

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
