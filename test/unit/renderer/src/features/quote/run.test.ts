import { describe, expect, it } from 'vitest';
import type { QuoteRate } from '../../../../../../core/contract/quote-ext';
import type { DeskQuoteResult, QuoteProgress } from '../../../../../../core/desk/contract';
import { rateKey } from '../../../../../../renderer/src/features/quote/logic';
import { IDLE, runReducer, type RunState } from '../../../../../../renderer/src/features/quote/run';
import { quoteRate } from './quote-rate';

const sort = { key: 'price', dir: 'asc' } as const;

function rate(carrier: string, code: string, price: number, days = 3): QuoteRate {
  return quoteRate({
    carrier,
    carrier_name: carrier,
    service_code: code,
    service_name: code,
    delivery_type: 'door',
    price_kopecks: price,
    currency: 'RUB',
    days_min: days,
    days_max: days,
    price_type: 'public',
  });
}

const cheapPost = rate('russian-post', 'p1', 100);
const dearCdek = rate('cdek', 'c1', 500);
const cheapCdek = rate('cdek', 'c2', 50);

// Only the fields the reducer reads: the core is dropping the English `unavailable` list from this result.
function result(rates: QuoteRate[], failures: DeskQuoteResult['failures'] = []): DeskQuoteResult {
  return { request_id: 'r', quote_id: 7, sandbox: true, rates, failures } as DeskQuoteResult;
}

const shipment = {
  from: { city: 'A' },
  to: { city: 'B' },
  parcel: { weight_grams: 1000, length_cm: 10, width_cm: 10, height_cm: 10 },
};

function started(): RunState {
  return runReducer(IDLE, { type: 'start', key: 'k', carriers: ['cdek', 'russian-post'], shipment });
}

describe('runReducer', () => {
  it('starts with every carrier waiting', () => {
    const s = started();
    expect(s.phase).toBe('running');
    expect(s.carriers.map((c) => [c.code, c.state])).toEqual([
      ['cdek', 'waiting'],
      ['russian-post', 'waiting'],
    ]);
  });

  it("inserts each carrier's rows where the sort puts them, and ignores other runs", () => {
    let s = started();
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      progress: { carrier: 'russian-post', state: 'answered', rates: [cheapPost], elapsedMs: 40 },
    });
    s = runReducer(s, {
      type: 'progress',
      key: 'other',
      sort,
      progress: { carrier: 'cdek', state: 'answered', rates: [dearCdek], elapsedMs: 1 },
    });
    expect(s.order).toEqual([rateKey(cheapPost)]);
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      progress: { carrier: 'cdek', state: 'answered', rates: [dearCdek, cheapCdek], elapsedMs: 90 },
    });
    // CDEK's cheaper row goes above the post row: «Цена ▲» stays true while rows arrive (issue #9).
    expect(s.order).toEqual([rateKey(cheapCdek), rateKey(cheapPost), rateKey(dearCdek)]);
    expect(s.carriers.find((c) => c.code === 'cdek')).toMatchObject({
      state: 'answered',
      elapsedMs: 90,
      count: 2,
    });
    const done = runReducer(s, {
      type: 'done',
      key: 'k',
      sort,
      result: result([cheapCdek, cheapPost, dearCdek]),
    });
    expect(done.order).toEqual(s.order);
    expect(done.phase).toBe('done');
    expect(done.quoteId).toBe(7);
    expect(done.shipment).toEqual(shipment);
    // The user's sort re-orders everything.
    expect(runReducer(done, { type: 'resort', sort: { key: 'price', dir: 'desc' } }).order).toEqual([
      rateKey(dearCdek),
      rateKey(cheapPost),
      rateKey(cheapCdek),
    ]);
  });

  it('lists carriers switched off in Carriers as such, after the ones asked', () => {
    const s = runReducer(IDLE, {
      type: 'start',
      key: 'k',
      carriers: ['russian-post'],
      disabled: ['cdek', 'russian-post'],
      shipment,
    });
    expect(s.carriers).toEqual([
      { code: 'russian-post', state: 'waiting' },
      { code: 'cdek', state: 'unavailable', kind: 'disabled' },
    ]);
  });

  it('takes unavailable carriers and missed answers from the final result', () => {
    let s = runReducer(IDLE, { type: 'start', key: 'k', carriers: ['cdek'], shipment });
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      // The core's English wording (`reason`, soon `detail`) is not read: the kind is worded by the UI.
      progress: { carrier: 'cdek', state: 'unavailable', kind: 'no_service', elapsedMs: 5 } as QuoteProgress,
    });
    s = runReducer(s, {
      type: 'done',
      key: 'k',
      sort,
      result: result(
        [cheapPost],
        [
          { carrier: 'cdek', kind: 'no_service' },
          { carrier: 'dpd', kind: 'unknown_carrier' },
        ],
      ),
    });
    expect(s.carriers.map((c) => [c.code, c.state, c.kind])).toEqual([
      ['cdek', 'unavailable', 'no_service'],
      ['dpd', 'unavailable', 'unknown_carrier'],
      ['russian-post', 'answered', undefined],
    ]);
    expect(s.order).toEqual([rateKey(cheapPost)]);
  });

  it('a late "waiting" never undoes an answer; a failed run marks the waiting ones', () => {
    let s = started();
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      progress: { carrier: 'cdek', state: 'answered', rates: [cheapCdek], elapsedMs: 9 },
    });
    s = runReducer(s, { type: 'progress', key: 'k', sort, progress: { carrier: 'cdek', state: 'waiting' } });
    expect(s.carriers.find((c) => c.code === 'cdek')?.state).toBe('answered');
    const failed = runReducer(s, { type: 'failed', key: 'k', error: new Error('x') });
    expect(failed.phase).toBe('error');
    expect(failed.carriers.find((c) => c.code === 'russian-post')).toMatchObject({
      state: 'unavailable',
      kind: 'carrier_error',
    });
    expect(runReducer(failed, { type: 'clear' })).toMatchObject({ phase: 'idle', order: [], key: null });
  });
});
