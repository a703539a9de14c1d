// Pure helpers of the carriers screen (no DOM, no React): unit-testable in Node.
import type { CarrierView } from '../../../../core/desk/contract';

export type CarrierStatus = CarrierView['status'];

/** What the last failure means for the person at the desk; the core's own text stays as the detail. */
export type LastErrorKind = 'timeout' | 'auth' | 'server' | 'not_configured' | 'carrier' | 'other';

export interface LastErrorInfo {
  kind: LastErrorKind;
  /** The core's technical wording (English), shown small under the plain sentence; '' when it adds nothing. */
  detail: string;
}

/**
 * Reads the health board's last_error (the reason phrases of docs/api.md: `timeout`, `carrier error: …`,
 * `not configured: …`) into a kind the UI words in Russian or English.
 */
export function describeLastError(text: string | null): LastErrorInfo | null {
  if (text === null || text.trim() === '') return null;
  const t = text.trim();
  if (t === 'timeout') return { kind: 'timeout', detail: '' };
  if (t.startsWith('not configured')) {
    return { kind: 'not_configured', detail: t.replace(/^not configured:?\s*/, '') };
  }
  const m = /^carrier error:\s*(.*)$/s.exec(t);
  if (m) {
    const detail = m[1] ?? '';
    if (/\b401\b|\b403\b|unauthori[sz]ed|invalid_client|access token|credentials/i.test(detail)) {
      return { kind: 'auth', detail };
    }
    if (/HTTP 5\d\d/.test(detail)) return { kind: 'server', detail };
    return { kind: 'carrier', detail: detail === 'unknown' ? '' : detail };
  }
  return { kind: 'other', detail: t };
}

export type UrlProblem = 'empty' | 'format' | 'scheme' | 'length';

/** The base URL a person typed: http(s) only, like the core's setting schema. Null when it is fine. */
export function checkBaseUrl(text: string): UrlProblem | null {
  const v = text.trim();
  if (v === '') return 'empty';
  if (v.length > 2000) return 'length';
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return 'format';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (url.hostname === '') return 'format';
  return null;
}

/** What saving an address means to the core (carriers:update): a host the carrier publishes is that choice. */
export type AddressChoice = { endpoint: 'production' | 'test' } | { endpoint: 'custom'; base_url: string };

/**
 * The address typed under «Свой адрес», as one choice of the endpoint control: the carrier's own production
 * or test host typed by hand is that choice (so the control shows what is really asked), anything else is
 * `custom` with that host. Compared without trailing slashes and letter case of the host part.
 */
export function addressChoice(carrier: Pick<CarrierView, 'hosts'>, text: string): AddressChoice {
  const typed = text.trim();
  const same = (host: string | null): boolean => host !== null && sameAddress(host, typed);
  if (same(carrier.hosts.production)) return { endpoint: 'production' };
  if (same(carrier.hosts.test)) return { endpoint: 'test' };
  return { endpoint: 'custom', base_url: typed };
}

function sameAddress(a: string, b: string): boolean {
  const norm = (u: string): string => {
    const t = u.trim().replace(/\/+$/, '');
    try {
      const url = new URL(t);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      return t;
    }
  };
  return norm(a) === norm(b);
}

export type TimeoutProblem = 'format' | 'range';

/** A carrier's own timeout as typed: empty or 0 means the general one; otherwise whole milliseconds up to 60 000. */
export function parseTimeout(
  text: string,
): { ok: true; value: number } | { ok: false; problem: TimeoutProblem } {
  const t = text.replace(/[\s\u00a0\u202f]/g, '');
  if (t === '') return { ok: true, value: 0 };
  if (!/^\d+$/.test(t)) return { ok: false, problem: 'format' };
  const n = Number(t);
  return n <= 60_000 ? { ok: true, value: n } : { ok: false, problem: 'range' };
}

export type CredentialsProblem = {
  field: 'client_id' | 'client_secret';
  problem: 'missing' | 'length' | 'spaces';
};

/**
 * The credentials form before it is sent. A secret without an account id is useless (the carrier needs
 * both), so it is refused here rather than stored half-configured.
 */
export function checkCredentials(input: {
  /** null: the carrier's account is a secret alone (an API key), there is no id to ask for. */
  clientId: string | null;
  /** '' when the person did not type a new secret. */
  newSecret: string;
  /** Whether a secret is already stored. */
  hasSecret: boolean;
}): CredentialsProblem[] {
  const problems: CredentialsProblem[] = [];
  if (input.clientId === null) {
    const secret = input.newSecret.trim();
    if (secret.length > 200) return [{ field: 'client_secret', problem: 'length' }];
    if (/\s/.test(secret)) return [{ field: 'client_secret', problem: 'spaces' }];
    return [];
  }
  const id = input.clientId.trim();
  const secret = input.newSecret.trim();
  if (id.length > 200) problems.push({ field: 'client_id', problem: 'length' });
  else if (/\s/.test(id)) problems.push({ field: 'client_id', problem: 'spaces' });
  if (secret.length > 200) problems.push({ field: 'client_secret', problem: 'length' });
  else if (/\s/.test(secret)) problems.push({ field: 'client_secret', problem: 'spaces' });
  if (id === '' && (secret !== '' || input.hasSecret))
    problems.push({ field: 'client_id', problem: 'missing' });
  if (id !== '' && secret === '' && !input.hasSecret)
    problems.push({ field: 'client_secret', problem: 'missing' });
  return problems;
}

export const STATUS_TONE = {
  available: 'ok',
  unknown: 'neutral',
  unavailable: 'danger',
} as const satisfies Record<CarrierStatus, 'ok' | 'neutral' | 'danger'>;
