// One resource-exhaustion attack against a listener, run as its own process so that its CPU use does not
// distort the latency the legitimate client measures in the test process:
//   node --import tsx test/helpers/attacker.ts <attack> <port> <key> <connections> <durationMs>
// Prints one JSON line: connections opened, answers by status, the slowest close, bytes offered.
import { connect, type Socket } from 'node:net';

export const ATTACKS = [
  'slowloris',
  'slow-body',
  'header-bomb',
  'header-count',
  'oversized',
  'chunked-endless',
  'early-answer',
] as const;
export type Attack = (typeof ATTACKS)[number];

export interface AttackReport {
  attack: Attack;
  connections: number;
  answers: Record<string, number>;
  /** Connections the server had not closed when the attack ended (should be 0 for the slow attacks). */
  stillOpen: number;
  /** Longest time from connect to the server's close, in ms. */
  maxCloseMs: number;
  bytesOffered: number;
}

interface Conn {
  socket: Socket;
  opened: number;
  status: string | null;
  closedAt: number | null;
}

/** Runs `attack` for `durationMs`: slow attacks hold `connections` sockets; floods reconnect as fast as they can. */
export async function runAttack(
  attack: Attack,
  port: number,
  key: string,
  connections: number,
  durationMs: number,
): Promise<AttackReport> {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const auth = `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n`;
  const conns: Conn[] = [];
  let bytesOffered = 0;
  const deadline = performance.now() + durationMs;
  const slow = attack === 'slowloris' || attack === 'slow-body';

  const open = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const conn: Conn = { socket, opened: performance.now(), status: null, closedAt: null };
      conns.push(conn);
      let timer: NodeJS.Timeout | undefined;
      const write = (data: string | Buffer): void => {
        if (!socket.writable) return;
        bytesOffered += data.length;
        socket.write(data);
      };
      socket.on('error', () => {});
      socket.on('data', (d: Buffer) => {
        conn.status ??= /^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1] ?? '?';
      });
      socket.on('close', () => {
        conn.closedAt = performance.now();
        clearInterval(timer);
        resolve();
      });
      socket.on('connect', () => {
        switch (attack) {
          case 'slowloris': {
            // One byte of a header every second, never finishing the header section.
            write(`GET /v1/balance HTTP/1.1\r\n${host}X-Slow: `);
            timer = setInterval(() => write('a'), 1_000);
            break;
          }
          case 'slow-body': {
            write(`POST /v1/rates HTTP/1.1\r\n${host}${auth}Content-Length: 1000\r\n\r\n`);
            timer = setInterval(() => write('{'), 1_000);
            break;
          }
          case 'header-bomb':
            write(`GET /v1/balance HTTP/1.1\r\n${host}X-Bomb: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
            break;
          case 'header-count':
            write(`GET /v1/balance HTTP/1.1\r\n${host}${'X-A: b\r\n'.repeat(5_000)}\r\n`);
            break;
          case 'oversized':
          case 'early-answer':
          case 'chunked-endless': {
            const head =
              attack === 'oversized'
                ? `POST /v1/rates HTTP/1.1\r\n${host}${auth}Content-Length: 104857600\r\n\r\n`
                : attack === 'early-answer'
                  ? `POST /v1/rates HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100000000000\r\n\r\n`
                  : `POST /v1/rates HTTP/1.1\r\n${host}${auth}Transfer-Encoding: chunked\r\n\r\n`;
            write(head);
            const chunk =
              attack === 'chunked-endless' ? `10000\r\n${'a'.repeat(0x10000)}\r\n` : Buffer.alloc(65536, 97);
            const pump = (): void => {
              while (socket.writable && performance.now() < deadline) {
                bytesOffered += chunk.length;
                if (!socket.write(chunk)) return;
              }
              if (performance.now() >= deadline) socket.destroy();
            };
            socket.on('drain', pump);
            pump();
            break;
          }
        }
      });
    });

  if (slow) {
    const all = Array.from({ length: connections }, () => open());
    await Promise.race([Promise.all(all), new Promise((r) => setTimeout(r, durationMs))]);
  } else {
    // Floods: each of `connections` loops reconnects as soon as the server closes, until the deadline.
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) await open();
      }),
    );
  }
  const answers: Record<string, number> = {};
  let stillOpen = 0;
  let maxCloseMs = 0;
  for (const c of conns) {
    const label = c.status ?? (c.closedAt === null ? 'open' : 'closed without answer');
    answers[label] = (answers[label] ?? 0) + 1;
    if (c.closedAt === null) stillOpen += 1;
    else maxCloseMs = Math.max(maxCloseMs, c.closedAt - c.opened);
    c.socket.destroy();
  }
  return { attack, connections: conns.length, answers, stillOpen, maxCloseMs, bytesOffered };
}

const [, , attack, port, key, connections, durationMs] = process.argv;
if (attack && (ATTACKS as readonly string[]).includes(attack)) {
  void runAttack(attack as Attack, Number(port), key ?? '', Number(connections), Number(durationMs)).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      process.exit(0);
    },
  );
}
