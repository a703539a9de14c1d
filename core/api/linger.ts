// A lingering close for a connection answered while its client is still sending (an early 401/403/413/415,
// or a parser error mid-body). Closing at once with the client's bytes unread in the receive buffer makes
// the kernel answer with RST, and the RST can destroy the answer in the client's buffers before the client
// reads it (RFC 9112 §9.6; lost in 4–5 of 11 attack-run attempts, 81–106 of 240 in its test:
// docs/reliability.md). So the server does what HTTP servers do (Apache httpd's lingering close; nginx's
// lingering_close, lingering_time and lingering_timeout): after the answer it half-closes, reads and
// discards what still arrives, then closes. Unlike theirs (nginx: 30 s, Apache: 2 s or 30 s, bytes
// unbounded), both the time and the bytes are bounded here, to keep the early-answer promises of
// docs/api.md: the server reads < 1 MiB of such a body and closes within 3 s of the connection
// (test/integration/api/early-answer.test.ts, lingering-close.test.ts).
import type { Socket } from 'node:net';

export interface LingerLimits {
  timeMs: number;
  maxBytes: number;
  maxSockets: number;
}

export const LINGER: Readonly<LingerLimits> = {
  /**
   * Longest time from the answer to the close. A client that reads while it sends (every HTTP client that
   * handles early answers: curl, Node, browsers) reads the answer within milliseconds; 2 s is Apache's
   * "short linger" (SECONDS_TO_LINGER, its choice against DoS) and leaves 1 s of the 3 s close promise.
   */
  timeMs: 2_000,
  /**
   * Bytes read and discarded after the answer; past them the socket stops reading and stays open until
   * timeMs, so the answer is not reset. Reading at all lets the close come at once when the client stops
   * (its FIN) and drains what a client that sends a little more than the 16 KiB body limit still sends.
   * Reading more would only grow the kernel's receive buffer (Linux autotunes it to the reading pace: 128 KiB
   * stayed 128 KiB after 64 KiB, grew to 0.4–1.9 MB after 256 KiB, measured) and the server's read, which
   * stays at most 262 KB (measured: ~130 KiB in flight before the answer, this, one more 64 KiB read),
   * a quarter of the 1 MiB promise. A client blocked in its writes reads the answer all the same: it sits
   * in its receive buffer, and nothing resets the connection before timeMs.
   */
  maxBytes: 64 * 1024,
  /**
   * Sockets lingering at once; beyond, a connection closes at once as before. Each holds, for timeMs, a
   * socket, up to 64 KiB in its stream buffer and its kernel receive buffer (128 KiB measured): this caps
   * what a flood of refused bodies keeps open at ~25 MB.
   */
  maxSockets: 128,
};

let lingering = 0;

/** Sockets lingering now (for tests and diagnostics). */
export function lingeringSockets(): number {
  return lingering;
}

/**
 * Makes the close that Node's HTTP server does after a `Connection: close` answer (socket.destroySoon(), an
 * immediate close once the answer is flushed) a lingering one. Called before the answer is sent.
 */
export function lingerOnClose(socket: Socket | null): void {
  if (socket === null || socket.destroyed) return;
  socket.destroySoon = () => lingeringClose(socket);
}

/**
 * Half-closes `socket` (the FIN follows whatever answer is queued), then reads and discards up to
 * `limits.maxBytes`, and destroys the socket when the client closes its side or after `limits.timeMs`.
 */
export function lingeringClose(socket: Socket, limits: Readonly<LingerLimits> = LINGER): void {
  if (socket.destroyed) return;
  if (lingering >= limits.maxSockets) {
    closeAfterFlush(socket, limits.timeMs);
    return;
  }
  lingering += 1;
  let discarded = 0;
  const over = (): boolean => discarded >= limits.maxBytes;
  const timer = setTimeout(() => socket.destroy(), limits.timeMs);
  timer.unref();
  socket.once('close', () => {
    lingering -= 1;
    clearTimeout(timer);
  });
  socket.on('error', () => socket.destroy());
  // The client closed its side: it has read what it wanted; nothing more will arrive.
  socket.on('end', () => socket.destroy());
  const discard = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (over()) socket.pause();
  };
  // A 'data' listener takes the socket from Node's HTTP parser (it "unconsumes" it); the parser's own
  // listener is then removed, so nothing after the answer is parsed: no pipelined request runs on a
  // connection that is closing, and no parse error of a body nobody reads ends the linger early.
  socket.on('data', discard);
  for (const listener of socket.listeners('data')) {
    if (listener !== discard) socket.off('data', listener as (chunk: Buffer) => void);
  }
  // Node resumes a socket when a request stream asks for more; past the budget it stays paused.
  socket.on('resume', () => {
    if (over()) socket.pause();
  });
  if (socket.writable) socket.end();
  socket.resume();
  restartHandle(socket);
}

/** The part of a socket's internal handle that Node's HTTP server itself uses to stop and restart reading. */
type HandleOf = Socket & { _handle?: { reading?: boolean; readStart?: () => number } | null };

/**
 * While Node's HTTP parser consumes a socket, the server stops and restarts reading on the handle, behind
 * the stream (onSocketPause/onSocketResume in lib/_http_server.js): a request nobody read stops it when its
 * buffer fills, and taking the socket from the parser removes the listener that would restart it. The
 * stream still believes a read is under way, so resume() and read(0) do nothing: the handle is restarted
 * as Node does.
 */
function restartHandle(socket: Socket): void {
  const handle = (socket as HandleOf)._handle;
  if (!handle?.readStart || handle.reading === true) return;
  handle.reading = true;
  if (handle.readStart() !== 0) socket.destroy();
}

/**
 * Node's own close after a last answer: end, then destroy once the answer is flushed, or after `timeMs` when
 * a client that reads nothing keeps it from flushing.
 */
function closeAfterFlush(socket: Socket, timeMs: number): void {
  if (socket.writable) socket.end();
  if (socket.writableFinished) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  setTimeout(() => socket.destroy(), timeMs).unref();
}
