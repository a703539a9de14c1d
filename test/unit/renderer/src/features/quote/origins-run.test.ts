import { describe, expect, it } from 'vitest';
import type { QuoteRate } from '../../../../../../core/contract/quote-ext';
import type { Rate } from '../../../../../../core/contract/v1';
import type { DeskQuoteResult, OriginsResult } from '../../../../../../core/desk/contract';
import {
  ORIGINS_IDLE,
  originKey,
  originsReducer,
  type OriginsRunState,
} from '../../../../../../renderer/src/features/quote/origins-run';
import { quoteRate } from './quote-rate';

const sort = { key: 'price', dir: 'asc' } as const;
const shipment = {
  from: { city: 'A' },
  to: { city: 'B' },
  parcel: { weight_grams: 1000, length_cm: 10, width_cm: 10, height_cm: 10 },
};

function rate(carrier: string, price: number): QuoteRate {
  return quoteRate({
    carrier,
    carrier_name: carrier,
    service_code: `${carrier}-s`,
    service_name: 's',
    delivery_type: 'door',
    price_kopecks: price,
    currency: 'RUB',
    days_min: 2,
    days_max: 3,
    price_type: 'public',
  } as Rate);
}

function result(rates: QuoteRate[]): DeskQuoteResult {
  return { request_id: 'r', quote_id: 1, sandbox: true, rates, failures: [] };
}

function started(): OriginsRunState {
  return originsReducer(ORIGINS_IDLE, {
    type: 'start',
    key: 'q',
    shipment,
    sandbox: true,
    warehouses: [
      { id: 1, name: 'W1', place: 'A', carriers: ['cdek', 'pek'], disabled: [] },
      { id: 2, name: 'W2', place: 'C', carriers: ['cdek'], disabled: ['dpd'] },
    ],
  });
}

describe('«из всех складов» as it runs', () => {
  it('one run per warehouse, each with its own carriers waiting (a switched-off one shown as such)', () => {
    const s = started();
    expect(s.phase).toBe('running');
    expect(s.origins.map((o) => o.run.key)).toEqual([originKey('q', 1), originKey('q', 2)]);
    expect(s.origins[0]!.run.carriers.map((c) => [c.code, c.state])).toEqual([
      ['cdek', 'waiting'],
      ['pek', 'waiting'],
    ]);
    expect(s.origins[1]!.run.carriers.map((c) => [c.code, c.state, c.kind])).toEqual([
      ['cdek', 'waiting', undefined],
      ['dpd', 'unavailable', 'disabled'],
    ]);
  });

  it("a progress event reaches only its own origin's run", () => {
    const s = originsReducer(started(), {
      type: 'progress',
      key: originKey('q', 2),
      progress: { carrier: 'cdek', state: 'answered', rates: [rate('cdek', 900)], elapsedMs: 5 },
      sort,
    });
    expect(s.origins[0]!.run.rates.size).toBe(0);
    expect(s.origins[1]!.run.rates.size).toBe(1);
    expect(s.origins[1]!.run.carriers[0]!.state).toBe('answered');
    // Another quote's events (or the single quote's own key) change nothing.
    const other = originsReducer(s, {
      type: 'progress',
      key: 'q',
      progress: { carrier: 'pek', state: 'answered', rates: [rate('pek', 1)], elapsedMs: 5 },
      sort,
    });
    expect(other).toBe(s);
  });

  it("ends with the core's answer: rates per origin, a failed origin said as failed", () => {
    const answer: OriginsResult = {
      origins: [
        {
          warehouse_id: 1,
          warehouse: 'W1',
          result: result([rate('cdek', 500), rate('pek', 300)]),
          cheapest_kopecks: 300,
          fastest_days: 2,
        },
        { warehouse_id: 2, warehouse: 'W2', result: null, cheapest_kopecks: null, fastest_days: null },
      ],
      cheapest_warehouse_id: 1,
      fastest_warehouse_id: 1,
    };
    const s = originsReducer(started(), { type: 'done', key: 'q', result: answer, sort });
    expect(s.phase).toBe('done');
    expect(s.result).toBe(answer);
    expect(s.origins[0]!.run.phase).toBe('done');
    expect([...s.origins[0]!.run.order]).toEqual(['pek/pek-s', 'cdek/cdek-s']);
    expect(s.origins[1]!.run.phase).toBe('error');
    // A stale answer (an earlier run's key) is ignored.
    expect(originsReducer(s, { type: 'done', key: 'old', result: answer, sort })).toBe(s);
    expect(originsReducer(s, { type: 'clear' })).toEqual(ORIGINS_IDLE);
  });

  it('a refusal of the whole run ends every origin still waiting', () => {
    const s = originsReducer(started(), { type: 'failed', key: 'q', error: new Error('no') });
    expect(s.phase).toBe('error');
    expect(s.origins.every((o) => o.run.phase === 'error')).toBe(true);
  });
});
