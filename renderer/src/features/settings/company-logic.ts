// Pure helpers of Settings → «Сервер компании» (#20): the fingerprint as a person reads it aloud, the
// enrolment code as typed, and the link's refusals in the UI language.
import { CompanyUrl } from '../../../../core/desk/contract';
import type { company } from '../../i18n/company';

/**
 * "AB:CD:…" (32 bytes) as four lines of eight bytes: short enough to compare line by line with what the
 * administrator reads out, and still the colon form `openssl x509 -fingerprint -sha256` prints.
 */
export function fingerprintLines(fingerprint: string): string[] {
  const bytes = fingerprint
    .toUpperCase()
    .split(/[^0-9A-F]+/)
    .join('')
    .match(/.{1,2}/g);
  if (!bytes) return [fingerprint];
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 8) lines.push(bytes.slice(i, i + 8).join(':'));
  return lines;
}

/** The server address as the contract takes it, or null when it is not one. */
export function parseCompanyUrl(text: string): string | null {
  const r = CompanyUrl.safeParse(text);
  return r.success ? r.data : null;
}

/** What a person types as the code: upper case, the dashes kept where they typed them. */
export function normaliseCodeInput(text: string): string {
  return text.toUpperCase().replace(/[^0-9A-Z-\s]/g, '');
}

export function looksLikePem(text: string): boolean {
  return /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(text);
}

type Key = keyof typeof company.ru;

/**
 * The desk's link answers in English (its messages go to the log too); the failures a person meets while
 * joining are recognised here and said in the UI language. Anything else keeps the shared wording.
 */
const KNOWN: readonly { re: RegExp; key: Key }[] = [
  // First: "certificate has expired" is about the certificate, not the code.
  {
    re: /fingerprint|certificate|self[- ]signed|unable to verify|pinned|CERT_|ERR_TLS/i,
    key: 'err.certificate',
  },
  { re: /already (been )?used|used once|code.*\bused\b/i, key: 'err.codeUsed' },
  { re: /expired/i, key: 'err.codeExpired' },
  {
    re: /unknown (enrol(l)?ment )?code|no such code|code.*(not known|not found|unknown|invalid)|invalid code/i,
    key: 'err.codeUnknown',
  },
  { re: /user is disabled/i, key: 'err.userDisabled' },
  { re: /not a RateDesk|as a RateDesk|not ratedesk|unexpected answer/i, key: 'err.notRatedesk' },
  {
    re: /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EAI_AGAIN|timed? ?out|unreachable|did not answer|could not (reach|connect)|cannot be reached|fetch failed/i,
    key: 'err.unreachable',
  },
  { re: /revoked|disabled|unauthori[sz]ed/i, key: 'err.refused' },
];

/** The message key for a failed company:* call, or null when the shared wording fits better. */
export function companyErrorKey(code: string, detail: string): Key | null {
  if (detail) for (const k of KNOWN) if (k.re.test(detail)) return k.key;
  if (code === 'network' || code === 'offline') return 'err.unreachable';
  return null;
}
