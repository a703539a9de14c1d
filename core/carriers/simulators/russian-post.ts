// Local stand-in for tariff.pochta.ru (sandbox mode, tests, benchmarks): the same path, query and JSON
// shapes as the live service, on 127.0.0.1 with an ephemeral port. Sandbox postal codes
// (sandbox-triggers.ts) make it hang, fail or have no service on purpose.
import { TARIFF_PATH } from '../russian-post/request';
import { startSimulatorServer, type SimulatorHandle } from './handle';
import { answerTariffQuery } from './russian-post-calc';

export interface RussianPostSimulatorOptions {
  /** Delay before every answer, ms (benchmarks model a real carrier's round trip with it). */
  latencyMs?: number;
}

const TEXT = { 'content-type': 'text/plain; charset=utf-8' } as const;
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' } as const;

export function startRussianPostSimulator(opts: RussianPostSimulatorOptions = {}): Promise<SimulatorHandle> {
  const answers = new AnswerMemo();
  return startSimulatorServer(
    ({ req, send }) => {
      const url = new URL(req.url ?? '/', 'http://simulator.invalid');
      if (req.method !== 'GET') return send(405, 'Method not allowed', { ...TEXT, allow: 'GET' });
      if (url.pathname !== TARIFF_PATH) return send(404, 'Not found', TEXT);
      // The live service would answer in its text/html formats; the simulator speaks only JSON.
      if (!url.searchParams.has('json')) return send(400, 'Only the json output format is simulated', TEXT);
      const answer = answers.get(url.search, () => answerTariffQuery(url.searchParams, new Date()));
      // A hanging carrier: the request stays open until the client gives up or close() drops it.
      if (answer.kind === 'hang') return;
      send(answer.status, JSON.stringify(answer.body), JSON_TYPE);
    },
    {
      latencyMs: Math.max(0, opts.latencyMs ?? 0),
      onError: ({ send }) => send(500, JSON.stringify({ errors: [{ code: 5000 }] }), JSON_TYPE),
    },
  );
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
