// Pure URL predicates for the security guards. Every decision parses the URL with the WHATWG parser and
// compares parts, never string prefixes: "app://ratedesk.evil/" and "app://ratedesk@evil/" both start with
// "app://ratedesk" (Electron security checklist #13).

export const APP_SCHEME = 'app';
export const APP_HOST = 'ratedesk';
/** Where the renderer is served from (protocol.ts). */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * The origin of a URL as Chromium sees it for our standard `app:` scheme. Node's URL gives the opaque origin
 * "null" for every non-special scheme, so the tuple is rebuilt from the parsed parts; URLs that carry
 * credentials have no origin we would ever trust.
 */
export function originOf(url: string): string | null {
  const u = parse(url);
  if (!u || u.username !== '' || u.password !== '' || u.host === '') return null;
  return `${u.protocol}//${u.host}`;
}

/** A page of our own renderer: app://ratedesk/… exactly (no port, no credentials, no look-alike host). */
export function isTrustedRendererUrl(url: string): boolean {
  const u = parse(url);
  if (!u) return false;
  return (
    u.protocol === `${APP_SCHEME}:` &&
    u.hostname === APP_HOST &&
    u.port === '' &&
    u.username === '' &&
    u.password === ''
  );
}

/**
 * A link the user may follow in their browser: http or https with a real host and no embedded credentials
 * (a "https://bank.ru@evil.example/" link would show one host and open another).
 */
export function isSafeExternalUrl(url: string): boolean {
  const u = parse(url);
  if (!u) return false;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  return u.hostname !== '' && u.username === '' && u.password === '';
}
