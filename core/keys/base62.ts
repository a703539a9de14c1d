import { randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the OS CSPRNG in blocks: one syscall per block instead of one per id keeps
// request ids cheap on the listener's hot path. Bytes are used once and never reused.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function nextRandomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** Uniform random base62 string from the OS CSPRNG (rejection sampling, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** Fixed-width base62 of an unsigned 32-bit value: 6 digits hold up to 62^6 > 2^32. */
export function uint32ToBase62(value: number, width = 6): string {
  let n = value >>> 0;
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}
