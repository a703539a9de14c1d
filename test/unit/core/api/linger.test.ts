// The lingering close's own bounds, on real loopback sockets without HTTP: the answer reaches a client that
// never stops sending, the server reads at most its byte budget (plus one read and the stream's buffer) and
// closes at its time limit, a client that closes ends the linger at once, and past the cap a socket closes
// at once as before.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { lingeringClose, lingeringSockets, type LingerLimits } from '../../../../core/api/linger';

const ANSWER = 'refused\n';
/** One socket read and the stream's buffer: what can arrive after the budget is reached. */
const READ_SLACK = 2 * 64 * 1024;

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server that answers every connection at once and closes it with `limits`. */
async function answeringServer(limits: LingerLimits): Promise<{ port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  server = createServer({ allowHalfOpen: true }, (s) => {
    sockets.push(s);
    s.write(ANSWER);
    lingeringClose(s, limits);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, sockets };
}

interface ClientEnd {
  text: string;
  /** Milliseconds from connect to the connection's end. */
  elapsedMs: number;
}

/** A client that writes without end (never reacting to the answer) until the connection ends. */
function endlessClient(port: number): Promise<ClientEnd> {
  return new Promise((resolve) => {
    const started = performance.now();
    let text = '';
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = (): void => {
      while (!socket.destroyed && socket.writable) if (!socket.write(chunk)) return;
    };
    socket.on('connect', pump);
    socket.on('drain', pump);
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ text, elapsedMs: performance.now() - started }));
  });
}

describe('lingeringClose', () => {
  it('a client that never stops sending: the answer, at most the budget read, closed on time', async () => {
    const limits = { timeMs: 400, maxBytes: 64 * 1024, maxSockets: 8 };
    const { port, sockets } = await answeringServer(limits);
    const ends = await Promise.all(Array.from({ length: 5 }, () => endlessClient(port)));
    for (const end of ends) {
      expect(end.text).toBe(ANSWER);
      expect(end.elapsedMs).toBeGreaterThanOrEqual(limits.timeMs - 50);
      expect(end.elapsedMs).toBeLessThan(limits.timeMs + 2_000);
    }
    for (const s of sockets) expect(s.bytesRead).toBeLessThanOrEqual(limits.maxBytes + READ_SLACK);
    await expect.poll(() => lingeringSockets()).toBe(0);
  });

  it('ends as soon as the client closes its side', async () => {
    const limits = { timeMs: 10_000, maxBytes: 64 * 1024, maxSockets: 8 };
    const { port, sockets } = await answeringServer(limits);
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    socket.on('data', () => socket.end(Buffer.alloc(20_000, 0x61)));
    await new Promise((resolve) => socket.on('close', resolve));
    await expect.poll(() => sockets[0]?.destroyed).toBe(true);
    expect(performance.now() - started).toBeLessThan(limits.timeMs / 2);
    expect(sockets[0]!.bytesRead).toBe(20_000);
  });

  it('past maxSockets closes a connection at once, as Node does', async () => {
    const limits = { timeMs: 10_000, maxBytes: 64 * 1024, maxSockets: 1 };
    const { port, sockets } = await answeringServer(limits);
    // Clients that keep their side open: only the server's limits can end these connections.
    const quiet = (): Promise<Socket> =>
      new Promise((resolve) => {
        const s = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
        s.on('error', () => {});
        s.once('data', () => resolve(s));
      });
    const first = await quiet();
    const second = await quiet();
    await expect.poll(() => sockets[1]?.destroyed).toBe(true);
    expect(sockets[0]!.destroyed).toBe(false);
    expect(lingeringSockets()).toBe(1);
    first.destroy();
    second.destroy();
    await expect.poll(() => lingeringSockets()).toBe(0);
  });
});
