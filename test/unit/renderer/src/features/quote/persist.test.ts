// The kept result (#17 item 1): every unavailability kind survives a round trip through storage intact, and
// an entry that cannot be read drops that entry, never the result.
import { describe, expect, it } from 'vitest';
import type { QuoteRate } from '../../../../../../core/contract/quote-ext';
import type { ShipmentInput } from '../../../../../../core/contract/v1';
import {
  UNAVAILABLE_KINDS,
  type DeskQuoteResult,
  type UnavailableKind,
} from '../../../../../../core/desk/contract';
import { restoreRun, storableRun } from '../../../../../../renderer/src/features/quote/persist';
import { IDLE, runReducer, type RunState } from '../../../../../../renderer/src/features/quote/run';
import { quoteRate } from './quote-rate';

const sort = { key: 'price', dir: 'asc' } as const;
const KEY = 'ratedesk.quote.last';

const shipment: ShipmentInput = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 300_000, length_cm: 120, width_cm: 100, height_cm: 100 },
};

function rate(carrier: string, code: string, price: number): QuoteRate {
  return quoteRate({
    carrier,
    carrier_name: carrier.toUpperCase(),
    service_code: code,
    service_name: `Тариф ${code}`,
    delivery_type: 'terminal',
    price_kopecks: price,
    currency: 'RUB',
    days_min: 2,
    days_max: 4,
    price_type: 'public',
  });
}

/** What the details of each kind look like when the core sends one. */
const DETAIL: Partial<Record<UnavailableKind, string>> = {
  city_not_found: 'Нетгородово',
  exceeds_limits: 'weight 300 kg over 31.5 kg; sum of sides 320 cm over 300 cm',
  carrier_error: 'HTTP 500',
  carrier_busy: 'quota frees in 12 s',
  not_configured: 'no account',
};

/** A finished run: PEK answered, `other` gave no rate of this kind (streamed, as the core reports it). */
function finished(kind: UnavailableKind): RunState {
  const detail = DETAIL[kind];
  let s = runReducer(IDLE, { type: 'start', key: 'k', carriers: ['pek', 'other'], shipment });
  s = runReducer(s, {
    type: 'progress',
    key: 'k',
    sort,
    progress: { carrier: 'pek', state: 'answered', rates: [rate('pek', 'auto', 812_000)], elapsedMs: 40 },
  });
  s = runReducer(s, {
    type: 'progress',
    key: 'k',
    sort,
    at: 1_700_000_000_000,
    progress: {
      carrier: 'other',
      state: 'unavailable',
      kind,
      ...(detail ? { detail } : {}),
      // A skipped carrier says until when (#17 item 4): kept as a time of day.
      ...(kind === 'temporarily_skipped' ? { retryInMs: 20_000 } : {}),
      elapsedMs: 3,
    },
  });
  const result = {
    request_id: 'r',
    quote_id: 12,
    sandbox: true,
    rates: [rate('pek', 'auto', 812_000)],
    failures: [{ carrier: 'other', kind, ...(detail ? { detail } : {}) }],
  } as DeskQuoteResult;
  return runReducer(s, { type: 'done', key: 'k', sort, result });
}

/** localStorage as the page has it (text only), for Node: what session.tsx writes at the end of a run. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(k: string): string | null {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.items.set(k, String(v));
  }
}

function throughStorage(state: RunState): RunState {
  const storage = new MemoryStorage();
  storage.setItem(KEY, JSON.stringify(storableRun(state)));
  return restoreRun(JSON.parse(storage.getItem(KEY) ?? 'null'), sort);
}

describe('a kept result with a carrier of each unavailability kind', () => {
  it('covers every kind the contract has', () => {
    expect(UNAVAILABLE_KINDS.length).toBeGreaterThanOrEqual(11);
  });

  for (const kind of UNAVAILABLE_KINDS) {
    it(`${kind}: restored intact after a round trip through storage`, () => {
      const done = finished(kind);
      const back = throughStorage(done);
      expect(back.phase).toBe('done');
      expect(back.key).toBeNull();
      expect(back.carriers).toEqual(done.carriers);
      expect(back.carriers.find((c) => c.code === 'other')).toMatchObject({
        state: 'unavailable',
        kind,
        ...(DETAIL[kind] ? { detail: DETAIL[kind] } : {}),
        ...(kind === 'temporarily_skipped' ? { retryAt: 1_700_000_020_000 } : {}),
      });
      expect(back.order).toEqual(done.order);
      expect([...back.rates.values()]).toEqual([...done.rates.values()]);
      expect(back.shipment).toMatchObject(shipment);
      expect(back.quoteId).toBe(12);
      expect(back.sandbox).toBe(true);
    });
  }

  it('a result of only unavailable carriers (every carrier over its limits) is kept too', () => {
    const s = runReducer(IDLE, { type: 'start', key: 'k', carriers: ['a', 'b'], shipment });
    const done = runReducer(s, {
      type: 'done',
      key: 'k',
      sort,
      result: {
        request_id: 'r',
        quote_id: 1,
        sandbox: false,
        rates: [],
        failures: [
          { carrier: 'a', kind: 'exceeds_limits', detail: 'weight' },
          { carrier: 'b', kind: 'temporarily_skipped' },
        ],
      } as DeskQuoteResult,
    });
    const back = throughStorage(done);
    expect(back.phase).toBe('done');
    expect(back.carriers.map((c) => c.kind)).toEqual(['exceeds_limits', 'temporarily_skipped']);
  });
});

describe('an entry that cannot be read drops only itself', () => {
  const done = finished('city_not_found');
  const stored = (): Record<string, unknown> => JSON.parse(JSON.stringify(storableRun(done))) as never;

  it('a rate that does not read is left out; the other rates and every carrier stay', () => {
    const raw = stored();
    raw['rates'] = [
      ...(raw['rates'] as unknown[]),
      { carrier: 1 },
      { ...rate('x', 'y', 5), price_kopecks: -1 },
    ];
    const back = restoreRun(raw, sort);
    expect(back.phase).toBe('done');
    expect([...back.rates.keys()]).toEqual(['pek/auto']);
    expect(back.carriers).toEqual(done.carriers);
  });

  it('a carrier of a kind this build does not know is left out; the rest of the result stays', () => {
    const raw = stored();
    raw['carriers'] = [...(raw['carriers'] as unknown[]), { code: 'x', state: 'unavailable', kind: 'moon' }];
    const back = restoreRun(raw, sort);
    expect(back.phase).toBe('done');
    expect(back.carriers).toEqual(done.carriers);
    expect(back.rates.size).toBe(1);
  });

  it('an answered carrier whose own entry is lost comes back from its rates', () => {
    const raw = stored();
    raw['carriers'] = (raw['carriers'] as { code: string }[]).map((c) =>
      c.code === 'pek' ? { code: 'pek', state: 'answered', elapsedMs: 'soon' } : c,
    );
    const back = restoreRun(raw, sort);
    expect(back.carriers.find((c) => c.code === 'pek')).toEqual({ code: 'pek', state: 'answered', count: 1 });
    expect(back.carriers.find((c) => c.code === 'other')?.kind).toBe('city_not_found');
  });

  it('a damaged id or sandbox flag reads as unknown, not as a broken result', () => {
    const back = restoreRun({ ...stored(), quoteId: 'twelve', sandbox: 'yes' }, sort);
    expect(back.phase).toBe('done');
    expect(back.quoteId).toBeNull();
    expect(back.sandbox).toBeNull();
  });

  it('only a result without its frame (version, shipment) or with nothing readable is dropped', () => {
    expect(storableRun(IDLE)).toBeNull();
    expect(restoreRun(null, sort)).toBe(IDLE);
    expect(restoreRun({ ...stored(), v: 99 }, sort)).toBe(IDLE);
    expect(restoreRun({ ...stored(), shipment: { from: 'Москва' } }, sort)).toBe(IDLE);
    expect(restoreRun({ ...stored(), carriers: [{ code: 1 }], rates: 'none' }, sort)).toBe(IDLE);
  });
});
