import { describe, expect, it } from 'vitest';
import type { Rate } from '../../../core/contract/v1';
import type { DeskQuoteResult } from '../../../core/desk/contract';
import { rateKey } from '../../../renderer/src/features/quote/logic';
import { IDLE, runReducer, type RunState } from '../../../renderer/src/features/quote/run';

const sort = { key: 'price', dir: 'asc' } as const;

function rate(carrier: string, code: string, price: number, days = 3): Rate {
  return {
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
  };
}

const cheapPost = rate('russian-post', 'p1', 100);
const dearCdek = rate('cdek', 'c1', 500);
const cheapCdek = rate('cdek', 'c2', 50);

function result(rates: Rate[], failures: DeskQuoteResult['failures'] = []): DeskQuoteResult {
  return {
    request_id: 'r',
    quote_id: 7,
    sandbox: true,
    rates,
    unavailable: failures.map((f) => ({ carrier: f.carrier, reason: f.kind })),
    failures,
  };
}

function started(): RunState {
  return runReducer(IDLE, {
    type: 'start',
    key: 'k',
    carriers: ['cdek', 'russian-post'],
    route: { from: 'A', to: 'B' },
  });
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

  it('appends rows per carrier as answers stream in, and ignores other runs', () => {
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
    // The post row stays first although CDEK has a cheaper one: no jumping while reading.
    expect(s.order).toEqual([rateKey(cheapPost), rateKey(cheapCdek), rateKey(dearCdek)]);
    expect(s.carriers.find((c) => c.code === 'cdek')).toMatchObject({
      state: 'answered',
      elapsedMs: 90,
      count: 2,
    });
  });

  it('on completion keeps the order unless told to settle, then sorts once', () => {
    let s = started();
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      progress: { carrier: 'russian-post', state: 'answered', rates: [cheapPost], elapsedMs: 40 },
    });
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      progress: { carrier: 'cdek', state: 'answered', rates: [cheapCdek], elapsedMs: 90 },
    });
    const kept = runReducer(s, {
      type: 'done',
      key: 'k',
      sort,
      settle: false,
      result: result([cheapCdek, cheapPost]),
    });
    expect(kept.order).toEqual([rateKey(cheapPost), rateKey(cheapCdek)]);
    expect(kept.phase).toBe('done');
    expect(kept.quoteId).toBe(7);
    const settled = runReducer(s, {
      type: 'done',
      key: 'k',
      sort,
      settle: true,
      result: result([cheapCdek, cheapPost]),
    });
    expect(settled.order).toEqual([rateKey(cheapCdek), rateKey(cheapPost)]);
    // The user's re-sort does the same.
    expect(runReducer(kept, { type: 'resort', sort }).order).toEqual(settled.order);
  });

  it('takes unavailable carriers and missed answers from the final result', () => {
    let s = runReducer(IDLE, { type: 'start', key: 'k', carriers: ['cdek'], route: { from: 'A', to: 'B' } });
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      progress: {
        carrier: 'cdek',
        state: 'unavailable',
        kind: 'no_service',
        reason: 'no service on this route',
        elapsedMs: 5,
      },
    });
    s = runReducer(s, {
      type: 'done',
      key: 'k',
      sort,
      settle: false,
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
