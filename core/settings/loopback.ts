// Which bind addresses keep the /v1 API on this computer: the rule of the listener.host setting, read by the
// listener (core/api/server.ts) and by the desk's listener operation (core/operations/settings.ts). Its own
// module so that the desk's listener rule does not load the whole listener (node:http and every route) into the
// admin CLI, and beside the settings so that operations do not import the /v1 listener's modules.
import { isIP } from 'node:net';

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
