// The environment a host reads its server key from (core/settings/server-key.ts). RATEDESK_SERVER_KEY holds
// the key itself, so it is taken out of the live process environment as the host starts: a child process
// inherits nothing of it, and Node's diagnostic report (which lists the environment) does not show it.
import { SERVER_KEY_ENV } from '../settings/server-key';

/** A copy of process.env as it was, for loadServerKey; process.env keeps everything but the key. */
export function takeProcessEnv(): Readonly<Record<string, string | undefined>> {
  const env = { ...process.env };
  delete process.env[SERVER_KEY_ENV];
  return env;
}
