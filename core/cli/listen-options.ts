// `serve --listen HOST:PORT [--tls-cert FILE --tls-key FILE] [--trust-proxy] [--public-host NAME …]`: the flags of
// the company-network listener turned into the listener's options. The rules themselves (what a network bind
// needs) are core/api/company-listen.ts's; this checks the flags' syntax and refuses early, before the data
// folder or the database is opened.
import { isIP } from 'node:net';
import { checkCompanyListen, parsePublicHost, type CompanyListen } from '../api/company-listen';
import { readTlsMaterial } from '../api/tls-material';

/** For serve.ts's parseArgs. */
export const LISTEN_ARGS = {
  listen: { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'trust-proxy': { type: 'boolean', default: false },
  'public-host': { type: 'string', multiple: true },
} as const;

export const LISTEN_USAGE = `
The company-network listener (docs/operations.md, "The company-network listener"):
  --listen HOST:PORT    bind an IP address (IPv6 in brackets: [::]:8443); replaces --host/--port/--allow-remote.
                        A non-loopback address needs TLS or --trust-proxy, and --public-host
  --tls-cert FILE       PEM certificate (chain allowed) for HTTPS; with --tls-key. SIGHUP reloads both files
  --tls-key FILE        PEM private key of that certificate, unencrypted
  --trust-proxy         plain HTTP from a TLS-terminating reverse proxy, which must send X-Forwarded-Proto: https
  --public-host NAME    a host name clients use (repeatable; NAME or NAME:PORT); otherwise RATEDESK_PUBLIC_HOSTS=a,b`;

export interface ListenArgValues {
  host?: string | undefined;
  port?: string | undefined;
  'allow-remote'?: boolean | undefined;
  listen?: string | undefined;
  'tls-cert'?: string | undefined;
  'tls-key'?: string | undefined;
  'trust-proxy'?: boolean | undefined;
  'public-host'?: string[] | undefined;
}

export type CompanyListenArgs =
  | { ok: true; listen: { host: string; port: number; company: CompanyListen } | null }
  | { ok: false; message: string };

/** null `listen` when --listen is not given (the desk's loopback listener, as before). */
export function parseListenArgs(
  values: ListenArgValues,
  env: NodeJS.ProcessEnv = process.env,
): CompanyListenArgs {
  const fail = (message: string): CompanyListenArgs => ({ ok: false, message });
  const companyFlags = given(values, ['tls-cert', 'tls-key', 'trust-proxy', 'public-host']);
  if (values.listen === undefined) {
    if (companyFlags.length === 0) return { ok: true, listen: null };
    return fail(`${companyFlags.join(', ')} only work with --listen HOST:PORT.`);
  }
  const legacy = given(values, ['host', 'port', 'allow-remote']);
  if (legacy.length > 0) return fail(`--listen HOST:PORT replaces ${legacy.join(', ')}: give only --listen.`);
  const address = parseHostPort(values.listen);
  if (typeof address === 'string') return fail(address);

  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    return fail('HTTPS needs both --tls-cert FILE and --tls-key FILE.');
  }
  let publicHosts: string[];
  try {
    const given = values['public-host'] ?? [];
    // Flags win over the environment, as everywhere in serve.
    const raw = given.length > 0 ? given : (env.RATEDESK_PUBLIC_HOSTS ?? '').split(',');
    publicHosts = [...new Set(raw.filter((h) => h.trim() !== '').map(parsePublicHost))];
  } catch (err) {
    return fail((err as Error).message);
  }
  let tls: CompanyListen['tls'] = null;
  if (certFile !== undefined && keyFile !== undefined) {
    try {
      tls = readTlsMaterial({ certFile, keyFile });
    } catch (err) {
      return fail((err as Error).message);
    }
  }
  const company: CompanyListen = { publicHosts, trustProxy: values['trust-proxy'] ?? false, tls };
  const { refusal } = checkCompanyListen(address.host, address.port, company);
  if (refusal) return fail(refusal);
  return { ok: true, listen: { ...address, company } };
}

/** The flags among `names` that were given (a boolean flag counts when true), as `--name`. */
function given(values: ListenArgValues, names: ReadonlyArray<keyof ListenArgValues>): string[] {
  return names.filter((n) => values[n] !== undefined && values[n] !== false).map((n) => `--${n}`);
}

/** `127.0.0.1:8443`, `0.0.0.0:8443`, `[::]:8443`, `[fd00::5]:8443`, `localhost:8443` → host (no brackets), port. */
export function parseHostPort(text: string): { host: string; port: number } | string {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const usage =
    `--listen wants HOST:PORT with an IP address or localhost, IPv6 in brackets ` +
    `(127.0.0.1:8443, 0.0.0.0:8443, [::]:8443), got "${text}".`;
  if (!m) return usage;
  const host = (m[1] ?? m[2]!).toLowerCase();
  const port = Number(m[3]);
  if (m[1] !== undefined ? isIP(host) !== 6 : isIP(host) !== 4 && host !== 'localhost') return usage;
  if (port > 65535) return `--listen: the port must be from 0 to 65535, got ${m[3]}.`;
  return { host, port };
}
