// The JSON object body every POST of the listener takes (/v1/rates, /ext/v1/rates, /ext/v1/points): read
// within the size bound, decoded as UTF-8, parsed, checked to be an object. One reader, so the extension's
// 400/413 answers are /v1's exactly.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeUtf8, readBody } from './body';
import { sendError, type HeaderList } from './respond';

/** The parsed object, or undefined once the error was sent (or the client went away). */
export async function readJsonObject(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  headers: HeaderList,
): Promise<object | undefined> {
  const read = await readBody(req, res);
  if (!read.ok) {
    if (read.reason === 'too_large') sendError(res, 'payload_too_large', requestId, headers);
    return undefined;
  }
  const text = decodeUtf8(read.body);
  if (text === undefined) return void sendError(res, 'invalid_json', requestId, headers);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return void sendError(res, 'invalid_json', requestId, headers);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return void sendError(res, 'invalid_json', requestId, headers);
  }
  return raw;
}
