// A simulator's request body, read up to a bound like a carrier's front end reads it: null once it is over
// the bound (the simulator then answers as its carrier answers a body too large).
import type { IncomingMessage } from 'node:http';

/** The bound every simulator applies; no carrier request RateDesk sends comes near it. */
export const SIMULATOR_MAX_BODY_BYTES = 64 * 1024;

export async function readBody(
  req: IncomingMessage,
  maxBytes = SIMULATOR_MAX_BODY_BYTES,
): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
