import { randomBase62 } from '../keys/base62';

/** `req_` + 20 base62 chars (≈119 bits): unique without coordination, safe to show to clients. */
export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}
