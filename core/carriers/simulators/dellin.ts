// A local Dellin API (protocols.md §4) for sandbox mode and tests: POST /v2/calculator.json and POST
// /v1/public/request_terminals.json with appkey in the JSON body, answered by dellin-calc.ts. 127.0.0.1 only.
import { moscowDate } from '../dellin/request';
import {
  answerCalculator,
  answerTerminals,
  type DellinSimAnswer,
  type DellinStreetlessSearch,
} from './dellin-calc';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { readBody } from './read-body';

export interface DellinSimulatorOptions {
  latencyMs?: number;
  /** The appkey it accepts; a made-up one by default (Dellin publishes no test key). */
  appkey?: string;
  /** The simulator's clock (produce dates before its Moscow date are refused). */
  now?: () => Date;
  /** A searched address without a street: priced to the town (default) or refused with 180002 (audit DL4). */
  streetlessSearch?: DellinStreetlessSearch;
}

export const DELLIN_SIM_DEFAULT_APPKEY = '00000000-0000-0000-0000-000000000000';

export function startDellinSimulator(options: DellinSimulatorOptions = {}): Promise<SimulatorHandle> {
  const appkey = options.appkey ?? DELLIN_SIM_DEFAULT_APPKEY;
  const now = options.now ?? (() => new Date());
  const json = (send: SimulatorExchange['send'], status: number, body: unknown) =>
    send(status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8' });

  async function handle({ req, send }: SimulatorExchange): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const text = await readBody(req);
    const route = url.pathname;
    const known = route === '/v2/calculator.json' || route === '/v1/public/request_terminals.json';
    const fail = (status: number, title: string) =>
      json(send, status, {
        metadata: { status, detail: title },
        errors: [{ code: status * 1000, title, detail: title }],
      });
    if (!known) return fail(404, 'Метод не найден');
    if (req.method !== 'POST') return fail(405, 'Метод поддерживает только POST');
    if (text === null) return fail(413, 'Слишком большой запрос');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(400, 'Некорректный JSON');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return fail(400, 'Некорректный JSON');
    const record = body as Record<string, unknown>;
    const answer: DellinSimAnswer =
      route === '/v2/calculator.json'
        ? answerCalculator(record, appkey, moscowDate(now()), {
            streetlessSearch: options.streetlessSearch ?? 'geocode_town',
          })
        : answerTerminals(record, appkey);
    if (answer.kind === 'hang') return; // never answered; close() drops the socket
    json(send, answer.status, answer.body);
  }

  return startSimulatorServer(handle, {
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    onError: ({ send }) =>
      json(send, 500, { metadata: { status: 500 }, errors: [{ code: 500000, title: 'Внутренняя ошибка' }] }),
  });
}
