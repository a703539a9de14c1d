// The request target (RFC 9112 §3.2): which documented path a request names, and which authority it claims.
// Only the exact documented paths route; nothing is normalised (no dot segments, no percent-decoding, no
// backslashes, no trailing slash), so a path that names a route in a roundabout way is a 404, not a charge.

export interface RequestTarget {
  /** The path exactly as sent, without the query: compared as is with the route table. */
  path: string;
  /** The query without its `?`, or null when there is none. */
  query: string | null;
  /**
   * Absolute-form only (`GET http://host:port/v1/balance`): the authority, lower-cased. RFC 9112 §3.2.2 says it
   * replaces Host, so it is checked against the Host allowlist. `null` for origin-form targets.
   */
  authority: string | null;
}

const ABSOLUTE = { http: /^http:\/\/([^/?#]*)(.*)$/i, https: /^https:\/\/([^/?#]*)(.*)$/i };

/**
 * Parses `req.url`; undefined for asterisk-form, authority-form and anything else that names no path.
 * `scheme`: the listener's own (https over TLS, company mode).
 */
export function parseTarget(url: string, scheme: 'http' | 'https' = 'http'): RequestTarget | undefined {
  if (url.startsWith('/')) return splitQuery(url, null);
  // Absolute-form. Only the listener's scheme can name it; userinfo is never valid in an HTTP target
  // (RFC 9110 §4.2.4).
  const m = ABSOLUTE[scheme].exec(url);
  if (!m) {
    // Any other scheme (https:// on plain HTTP, ftp://, …) claims an authority that cannot be this listener.
    // Kept with its scheme so that it can never equal an allowed `host:port`.
    const other = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
    return other ? { path: '', query: null, authority: other[0].toLowerCase() } : undefined;
  }
  const authority = m[1]!.toLowerCase();
  const rest = m[2]!;
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return undefined;
  return splitQuery(rest.startsWith('/') ? rest : `/${rest}`, authority);
}

function splitQuery(pathAndQuery: string, authority: string | null): RequestTarget {
  const q = pathAndQuery.indexOf('?');
  if (q === -1) return { path: pathAndQuery, query: null, authority };
  return { path: pathAndQuery.slice(0, q), query: pathAndQuery.slice(q + 1), authority };
}

/** Names of query parameters that carry a credential in other APIs; refused whatever their value. */
const CREDENTIAL_NAMES =
  /(^|[_-])(api[_-]?key|access[_-]?token|token|key|secret|auth|authorization|bearer)$/i;

/**
 * Spec §5.4: the secret must never be in a query string. None of our endpoints takes a query parameter, so a
 * query is inspected for anything that looks like a credential, whatever the parameter is called: a value or
 * name containing the key prefix (also percent-encoded, up to three times), or a parameter named like a
 * credential. The caller answers 401 without echoing or logging the query.
 */
export function queryCarriesSecret(query: string): boolean {
  let text = query;
  for (let i = 0; i < 4; i++) {
    const plus = text.replace(/\+/g, ' ');
    if (/rdk_/i.test(plus)) return true;
    if (plus.split('&').some((pair) => CREDENTIAL_NAMES.test(pair.split('=')[0]!.trim()))) return true;
    const decoded = percentDecode(plus);
    if (decoded === text) return false;
    text = decoded;
  }
  return false;
}

/** One level of percent-decoding; malformed encoding is decoded byte by byte as far as it can be. */
export function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}
