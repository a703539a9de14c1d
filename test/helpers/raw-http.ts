// Raw TCP exchanges with the listener, for what an HTTP client library would refuse to send: malformed request
// lines, bad chunking, absolute-form targets, bodies that never end. The first response is parsed by hand.
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  /** Everything the server sent, as text. */
  text: string;
  status: number | null;
  headers: Record<string, string>;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON shapes
  json: any;
  /** The server closed the connection within the wait. */
  closed: boolean;
  /** Milliseconds from connect to close (or to the end of the wait). */
  elapsedMs: number;
}

/** Parses the first HTTP response in `text` (Content-Length framed; our listener never chunks). */
export function parseResponse(text: string): Omit<RawResponse, 'text' | 'closed' | 'elapsedMs'> {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: null, headers: {}, body: '', json: undefined };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyBytes = Buffer.from(text.slice(end + 4), 'utf8').subarray(0, length);
  const body = bodyBytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number.isNaN(status) ? null : status, headers, body, json };
}

export interface ExchangeOptions {
  /** How long to wait for the server to close (default 3 s). */
  waitMs?: number;
  /** Called once connected, to keep writing (e.g. an endless body); stop when the socket closes. */
  pump?: (socket: Socket) => void;
}

/** Sends `data` on a fresh connection and collects what comes back until the server closes or the wait ends. */
export function rawExchange(
  port: number,
  data: string | Buffer,
  options: ExchangeOptions = {},
): Promise<RawResponse> {
  const waitMs = options.waitMs ?? 3_000;
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect(port, '127.0.0.1');
    const done = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ text, closed, elapsedMs: performance.now() - started, ...parseResponse(text) });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on('connect', () => {
      socket.write(data);
      options.pump?.(socket);
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    // EPIPE/ECONNRESET while still sending is how an early answer looks from a writing client.
    socket.on('error', () => {});
    socket.on('close', () => done(true));
  });
}

/** Writes 64 KiB chunks as fast as the socket takes them until it closes; returns the bytes offered. */
export function endlessBody(socket: Socket, counter: { sent: number }): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const pump = (): void => {
    while (!socket.destroyed && socket.writable) {
      counter.sent += chunk.length;
      if (!socket.write(chunk)) return;
    }
  };
  socket.on('drain', pump);
  pump();
}

/**
 * Sends `data` on a fresh connection and resolves as soon as one whole final response has arrived (interim
 * 1xx answers skipped; no body after a HEAD), or the server closed, or `waitMs` passed. Then half-closes and,
 * failing an answer, waits `graceMs` more: an incomplete request is then refused by the parser, not left to
 * the request timeout.
 */
export function firstAnswer(
  port: number,
  data: string | Buffer,
  options: { head?: boolean; waitMs?: number; graceMs?: number } = {},
): Promise<RawResponse & { answered: boolean }> {
  const waitMs = options.waitMs ?? 2_000;
  const graceMs = options.graceMs ?? 1_000;
  return new Promise((resolve) => {
    const started = performance.now();
    let buffered = Buffer.alloc(0);
    let settled = false;
    let closed = false;
    const socket = connect(port, '127.0.0.1');
    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = finalResponse(buffered, options.head ?? false) ?? buffered.toString('utf8');
      const parsed = parseResponse(text);
      resolve({
        text,
        closed,
        elapsedMs: performance.now() - started,
        ...parsed,
        answered: finalResponse(buffered, options.head ?? false) !== undefined,
      });
    };
    let timer = setTimeout(() => {
      socket.end();
      timer = setTimeout(finish, graceMs);
    }, waitMs);
    socket.on('connect', () => socket.write(data));
    socket.on('data', (c: Buffer) => {
      buffered = Buffer.concat([buffered, c]);
      if (finalResponse(buffered, options.head ?? false) !== undefined) finish();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
  });
}

/** The first complete non-1xx response in `buf` as text, or undefined while it is incomplete. */
function finalResponse(buf: Buffer, head: boolean): string | undefined {
  let at = 0;
  for (;;) {
    const end = buf.indexOf('\r\n\r\n', at);
    if (end === -1) return undefined;
    const headText = buf.subarray(at, end).toString('latin1');
    if (/^HTTP\/1\.[01] 1\d\d /.test(headText)) {
      at = end + 4;
      continue;
    }
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(headText)?.[1] ?? 0);
    const bodyLength = head ? 0 : length;
    if (buf.length < end + 4 + bodyLength) return undefined;
    return buf.subarray(at, end + 4 + bodyLength).toString('utf8');
  }
}
