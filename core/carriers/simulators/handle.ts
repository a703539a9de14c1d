// What every carrier simulator shares: its handle, the latency it answers after, and the server around a
// carrier's protocol handler (listen on loopback, count, time, close).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running carrier simulator: where it listens and how to stop it. */
export interface SimulatorHandle {
  url: string;
  close(): Promise<void>;
  requestCount(): number;
}

/**
 * Answers `latencyMs` after the request arrived, the simulator's own work included: a benchmark at 20 ms then
 * measures 20 ms of carrier time, not 20 ms plus the simulator's CPU. Pending timers are tracked so close()
 * can drop them.
 */
export function answerAfter(
  latencyMs: number,
  arrivedAt: number,
  timers: Set<NodeJS.Timeout>,
  write: () => void,
): void {
  const wait = latencyMs - (performance.now() - arrivedAt);
  if (latencyMs <= 0 || wait <= 0) {
    write();
    return;
  }
  const timer = setTimeout(() => {
    timers.delete(timer);
    write();
  }, wait);
  timers.add(timer);
}

/** One request as a simulator's handler sees it, with the one way to answer it after the simulator's latency. */
export interface SimulatorExchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** performance.now() when the request arrived: the latency counts from here. */
  arrivedAt: number;
  /** Answers `latencyMs` after arrival (a closed socket is skipped); never calling it is how a carrier hangs. */
  send(status: number, body: string, headers: Readonly<Record<string, string>>): void;
}

export interface SimulatorServerOptions {
  latencyMs?: number;
  /** The path every URL starts with (CDEK's `/v2`, Boxberry's `/json.php`): the handle's url ends with it. */
  basePath?: string;
  /** The carrier's answer to a handler that threw: its own form of an internal error. */
  onError(exchange: SimulatorExchange, error: unknown): void;
}

/**
 * The part every simulator shares: node:http on 127.0.0.1 at a free port, each request counted and timed,
 * answers held back to the simulator's latency, and close() that drops pending answers and every connection
 * (hung timeout-trigger and keep-alive ones would otherwise hold it open). Only the carrier's protocol is left
 * to each simulator's handler.
 */
export async function startSimulatorServer(
  handler: (exchange: SimulatorExchange) => void | Promise<void>,
  options: SimulatorServerOptions,
): Promise<SimulatorHandle> {
  const latencyMs = options.latencyMs ?? 0;
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    const arrivedAt = performance.now();
    const exchange: SimulatorExchange = {
      req,
      res,
      arrivedAt,
      send: (status, body, headers) =>
        answerAfter(latencyMs, arrivedAt, timers, () => {
          if (res.destroyed) return;
          const own = Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-length');
          res.writeHead(status, { ...Object.fromEntries(own), 'content-length': Buffer.byteLength(body) });
          res.end(body);
        }),
    };
    try {
      const pending = handler(exchange);
      if (pending) pending.catch((error: unknown) => options.onError(exchange, error));
    } catch (error) {
      options.onError(exchange, error);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}${options.basePath ?? ''}`,
    requestCount: () => requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
