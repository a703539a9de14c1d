// Clients that stream a request body the server answers before reading, run as their own process (like the
// attacker) so that the race between the server's close and the client's read is not decided by one shared
// event loop: before the lingering close, the answer was lost in 3 of 240 attempts made from the test
// process itself, and in 81–106 of 240 made from here.
//   node --import tsx test/helpers/streaming-client.ts '<json of StreamingPlan>'
// Prints one JSON line: a StreamingResult per attempt.
import { rawExchange } from './raw-http';
import type { Socket } from 'node:net';

export interface StreamingPlan {
  port: number;
  /** The request line and headers, without the framing header and the blank line. */
  head: string;
  /** `sized`: Content-Length 8 MiB, written at once; `endless`: a well-framed chunked body without end. */
  body: 'sized' | 'endless';
  /** Attempts, all at once. */
  attempts: number;
  /** How long a client waits for the server to close. */
  waitMs: number;
}

export interface StreamingResult {
  /** The client's port: the server's socket for this attempt has it as its remote port. */
  localPort: number;
  /** Everything the client read before the connection ended. */
  text: string;
  closed: boolean;
  elapsedMs: number;
}

export const SIZED_BODY_BYTES = 8 * 1024 * 1024;

const CHUNK = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x61), Buffer.from('\r\n')]);

/** Writes CHUNK as fast as the socket takes it until the socket closes (never reacting to an answer). */
function endlessChunked(socket: Socket): void {
  const pump = (): void => {
    while (!socket.destroyed && socket.writable) if (!socket.write(CHUNK)) return;
  };
  socket.on('drain', pump);
  pump();
}

export async function runStreaming(plan: StreamingPlan): Promise<StreamingResult[]> {
  const sized = Buffer.alloc(SIZED_BODY_BYTES, 0x61);
  const framing =
    plan.body === 'sized' ? `Content-Length: ${SIZED_BODY_BYTES}\r\n` : 'Transfer-Encoding: chunked\r\n';
  return Promise.all(
    Array.from({ length: plan.attempts }, async () => {
      let localPort = 0;
      const r = await rawExchange(plan.port, `${plan.head}${framing}\r\n`, {
        waitMs: plan.waitMs,
        pump: (s) => {
          localPort = s.localPort ?? 0;
          if (plan.body === 'sized') s.write(sized);
          else endlessChunked(s);
        },
      });
      return { localPort, text: r.text, closed: r.closed, elapsedMs: r.elapsedMs };
    }),
  );
}

const [, , planJson] = process.argv;
if (planJson !== undefined && process.argv[1]?.endsWith('streaming-client.ts')) {
  void runStreaming(JSON.parse(planJson) as StreamingPlan).then((results) => {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    process.exit(0);
  });
}
