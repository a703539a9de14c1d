// Local stand-in for tariff.pochta.ru (sandbox mode, tests, benchmarks): the same path, query and JSON
// shapes as the live service, on 127.0.0.1 with an ephemeral port. Sandbox postal codes
// (sandbox-triggers.ts) make it hang, fail or have no service on purpose.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TARIFF_PATH } from '../russian-post/request';
import { answerAfter, type SimulatorHandle } from './handle';
import { answerTariffQuery } from './russian-post-calc';

export interface RussianPostSimulatorOptions {
  /** Delay before every answer, ms (benchmarks model a real carrier's round trip with it). */
  latencyMs?: number;
}

export async function startRussianPostSimulator(
  opts: RussianPostSimulatorOptions = {},
): Promise<SimulatorHandle> {
  const latencyMs = Math.max(0, opts.latencyMs ?? 0);
  const timers = new Set<NodeJS.Timeout>();
  const answers = new AnswerMemo();
  let requests = 0;

  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    requests++;
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    if (req.method !== 'GET') {
      res
        .writeHead(405, { Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Method not allowed');
      return;
    }
    if (url.pathname !== TARIFF_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (!url.searchParams.has('json')) {
      // The live service would answer in its text/html formats; the simulator speaks only JSON.
      res
        .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Only the json output format is simulated');
      return;
    }
    const answer = answers.get(url.search, () => answerTariffQuery(url.searchParams, new Date()));
    // A hanging carrier: the request stays open until the client gives up or close() drops it.
    if (answer.kind === 'hang') return;
    const body = JSON.stringify(answer.body);
    answerAfter(latencyMs, arrivedAt, timers, () => send(res, answer.status, body));
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
    url: `http://127.0.0.1:${port}`,
    requestCount: () => requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Hanging and keep-alive connections would hold close() open; drop them.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function send(res: ServerResponse, status: number, body: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * The same query (with its date, which the adapter always sends) gets the same answer, so it is computed
 * once: a quote's five product requests arrive together, and a real carrier answers them in parallel while
 * this one process handles them in turn. Bounded; queries without a date are never remembered.
 */
class AnswerMemo {
  private readonly entries = new Map<string, ReturnType<typeof answerTariffQuery>>();

  get(
    search: string,
    compute: () => ReturnType<typeof answerTariffQuery>,
  ): ReturnType<typeof answerTariffQuery> {
    if (!/[?&]date=\d/.test(search)) return compute();
    let answer = this.entries.get(search);
    if (answer === undefined) {
      if (this.entries.size >= 512) this.entries.clear();
      answer = compute();
      this.entries.set(search, answer);
    }
    return answer;
  }
}
