// #16 item 7: a key RateDesk knows, in the query string, is refused whatever it looks like. queryCarriesSecret
// (target.ts) recognises a RateDesk key by its `rdk_` prefix and credential-like parameter names, but a key
// issued elsewhere and imported has no shape of its own: any 20–200 printable characters. So the pieces of a
// query that could be a key are looked up by digest, like the Authorization header's (never the secret).
import { digestKey, FOREIGN_KEY_PATTERN, RATEDESK_KEY_PATTERN } from '../keys/format';
import type { KeyCache } from './key-cache';
import { percentDecode } from './target';

/**
 * The most key-shaped pieces one query may hold; a query with more is refused without a lookup. A cache
 * buster holds one to four (`_=2025-03-04T05%3A06%3A07Z`: the pair and the value, as sent and decoded), and
 * none of the endpoints takes a query parameter. It bounds the work a request can ask for: at most 16
 * SHA-256 digests of ≤ 200 bytes and 16 indexed lookups.
 */
export const MAX_QUERY_KEY_PIECES = 16;
/** As in queryCarriesSecret: a value encoded up to three times is still looked at. */
const DECODINGS = 3;
/** Decoding only shortens text, so a piece shorter than the shortest key never becomes one. */
const MIN_KEY_LENGTH = 20;
/**
 * Nor does a piece longer than the longest key encoded three times: a byte is `%XX`, then `%25XX`, then
 * `%2525XX` (7 characters), so 200 × 7. Longer pieces are not decoded at all.
 */
const MAX_ENCODED_KEY_LENGTH = 200 * 7;

const keyShaped = (text: string): boolean =>
  FOREIGN_KEY_PATTERN.test(text) || RATEDESK_KEY_PATTERN.test(text);

/**
 * The distinct pieces of `query` that have the shape of a key: the whole query, each `&`-separated pair,
 * each name and value (split at the pair's first `=`, so a key holding `=` stays whole), each as sent and
 * percent-decoded up to three times. `+` is kept as sent: a key has no spaces but may hold a `+`.
 * Undefined when there are more than MAX_QUERY_KEY_PIECES.
 */
export function keyShapedPieces(query: string): Set<string> | undefined {
  const found = new Set<string>();
  const pieces = [query];
  for (const pair of query.split('&')) {
    if (pair.length < MIN_KEY_LENGTH) continue;
    pieces.push(pair);
    const eq = pair.indexOf('=');
    if (eq >= 0) pieces.push(pair.slice(0, eq), pair.slice(eq + 1));
  }
  for (const piece of pieces) {
    let text = piece;
    if (text.length > MAX_ENCODED_KEY_LENGTH) continue;
    for (let i = 0; i <= DECODINGS && text.length >= MIN_KEY_LENGTH; i++) {
      if (keyShaped(text)) found.add(text);
      if (found.size > MAX_QUERY_KEY_PIECES) return undefined;
      const decoded = percentDecode(text);
      if (decoded === text) break;
      text = decoded;
    }
  }
  return found;
}

/**
 * True when a piece of the query is a key RateDesk holds, active or revoked, created or imported, or when the
 * query holds too many key-shaped pieces to look at. Asked only once the request's own key is good (see
 * server.ts), so that an unauthenticated caller cannot use the answer to test values for being keys.
 */
export async function queryHoldsKnownKey(query: string, keys: KeyCache): Promise<boolean> {
  const pieces = keyShapedPieces(query);
  if (pieces === undefined) return true;
  for (const piece of pieces) {
    const digest = digestKey(piece);
    if (keys.cached(digest) ?? (await keys.load(digest))) return true;
  }
  return false;
}
