import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 16 * 1024;

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/**
 * Reads at most MAX_BODY_BYTES; stops reading (and the answer closes the connection) beyond that. A client
 * that sent `Expect: 100-continue` is told to go on only here, once every check before the body has passed,
 * so a refused request never costs its body's upload.
 */
export function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit = MAX_BODY_BYTES,
): Promise<BodyResult> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  if (!req.complete && req.headers.expect !== undefined && !res.headersSent) res.writeContinue();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyResult): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish({ ok: true, body: Buffer.concat(chunks) }));
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

/** application/json, optionally with a charset parameter of utf-8; no content coding. */
export function isJsonContentType(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const ct = req.headers['content-type'];
  if (!ct) return false;
  const [type, ...params] = ct.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => p === '' || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

/**
 * True while the request still has body bytes on the way that nobody will read. An answer sent then must close
 * the connection: keeping it alive would make Node read and discard the whole body (any size, until the request
 * timeout) just to find the next request. Checked on rawHeaders, because req.complete is still false for a GET
 * without a body when its answer is sent, and building req.headers costs more than this scan.
 */
export function bodyUnread(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return true;
    if (name.length === 14 && name.toLowerCase() === 'content-length' && raw[i + 1]!.trim() !== '0')
      return true;
  }
  return false;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body as text, or undefined when it is not valid UTF-8 (never silently replaced by U+FFFD). */
export function decodeUtf8(body: Buffer): string | undefined {
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}
