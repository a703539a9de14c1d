// Unavailability that reads right (#17 item 4): tones, one reason per cause, advice that never asks for what
// is typed, when «Повторить» is offered, and a skipped carrier's «until when».
import { describe, expect, it } from 'vitest';
import type { ShipmentInput } from '../../../../../../core/contract/v1';
import { UNAVAILABLE_KINDS } from '../../../../../../core/desk/contract';
import { IDLE, runReducer } from '../../../../../../renderer/src/features/quote/run';
import {
  failedOf,
  formatTimeOfDay,
  groupUnavailable,
  isTransient,
  toneOf,
  worthRepeating,
  type Failed,
} from '../../../../../../renderer/src/features/quote/unavailable';

const sort = { key: 'price', dir: 'asc' } as const;

function shipment(toPostal: string | null, fromPostal: string | null = '101000'): ShipmentInput {
  return {
    from: { city: 'Москва', postal_code: fromPostal },
    to: { city: 'Нетгородово', postal_code: toPostal },
    parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  };
}

describe('tone', () => {
  it('an expected limit is neutral; only a carrier that failed is a fault; a skipped one is paused', () => {
    expect(toneOf('exceeds_limits')).toBe('neutral');
    expect(toneOf('no_service')).toBe('neutral');
    expect(toneOf('city_not_found')).toBe('neutral');
    expect(toneOf('timeout')).toBe('fault');
    expect(toneOf('carrier_error')).toBe('fault');
    expect(toneOf('temporarily_skipped')).toBe('paused');
    expect(toneOf('carrier_busy')).toBe('paused');
    for (const kind of UNAVAILABLE_KINDS) expect(['neutral', 'fault', 'paused']).toContain(toneOf(kind));
  });
});

describe('groupUnavailable: one cause, one reason', () => {
  const unknownTown: Failed[] = [
    { code: '5post', kind: 'city_not_found', detail: 'Нетгородово' },
    {
      code: 'dpd',
      kind: 'city_not_found',
      detail: 'DPD: city-not-found: Населенный пункт доставки не найден',
    },
    { code: 'pek', kind: 'city_not_found', detail: 'нетгородово' },
    { code: 'cdek', kind: 'exceeds_limits', detail: 'weight 300 kg over 30 kg' },
  ];

  it('an unknown town is one group for every carrier that could not find it, naming the town', () => {
    const groups = groupUnavailable(unknownTown, shipment('420000'));
    expect(groups.map((g) => g.kind)).toEqual(['city_not_found', 'exceeds_limits']);
    expect(groups[0]).toEqual({
      kind: 'city_not_found',
      codes: ['5post', 'dpd', 'pek'],
      city: 'Нетгородово',
      // The recipient's postal code is typed: only the name is left to check.
      advice: 'cityName',
    });
    expect(groups[1]).toMatchObject({ codes: ['cdek'], advice: null });
  });

  it('asks for a postal code only where none is typed', () => {
    expect(groupUnavailable(unknownTown, shipment(null))[0]?.advice).toBe('cityOrPostal');
    // A detail naming no typed town: both sides are suspects; the sender's code is missing.
    const vague: Failed[] = [{ code: 'dpd', kind: 'city_not_found', detail: 'DPD: not found' }];
    expect(groupUnavailable(vague, shipment('420000', null))[0]).toMatchObject({
      city: null,
      advice: 'cityOrPostal',
    });
    expect(groupUnavailable(vague, shipment('420000'))[0]).toMatchObject({ city: null, advice: 'cityName' });
  });

  it('postal_code_required asks for the missing side, or to check both when both are typed', () => {
    const f: Failed[] = [{ code: 'russian-post', kind: 'postal_code_required' }];
    expect(groupUnavailable(f, shipment(null))[0]?.advice).toBe('postalTo');
    expect(groupUnavailable(f, shipment('420000', null))[0]?.advice).toBe('postalFrom');
    expect(groupUnavailable(f, shipment('420000'))[0]?.advice).toBe('postalCheck');
  });

  it('lists what the clerk can fix first, each carrier once', () => {
    const groups = groupUnavailable(
      [
        { code: 'a', kind: 'timeout' },
        { code: 'b', kind: 'disabled' },
        { code: 'c', kind: 'exceeds_limits' },
        { code: 'd', kind: 'city_not_found' },
        { code: 'c', kind: 'exceeds_limits' },
      ],
      null,
    );
    expect(groups.map((g) => [g.kind, g.codes])).toEqual([
      ['city_not_found', ['d']],
      ['exceeds_limits', ['c']],
      ['timeout', ['a']],
      ['disabled', ['b']],
    ]);
  });
});

describe('«Повторить» after an answer with no rate', () => {
  it('is offered when some carrier may answer if asked again, not for verdicts on the parcel', () => {
    expect(worthRepeating([{ kind: 'timeout' }, { kind: 'exceeds_limits' }], 0)).toBe(true);
    expect(worthRepeating([{ kind: 'temporarily_skipped' }], 0)).toBe(true);
    expect(worthRepeating([{ kind: 'exceeds_limits' }, { kind: 'city_not_found' }], 0)).toBe(false);
    expect(worthRepeating([{ kind: 'timeout' }], 3)).toBe(false);
    expect(isTransient('carrier_error')).toBe(true);
  });
});

describe('a skipped carrier says until when', () => {
  it('turns the core’s retryInMs into a time of day when the event arrives, and remembers a probe', () => {
    let s = runReducer(IDLE, {
      type: 'start',
      key: 'k',
      carriers: ['cdek'],
      shipment: shipment('420000'),
      probe: ['cdek'],
    });
    expect(s.probed).toEqual(['cdek']);
    s = runReducer(s, {
      type: 'progress',
      key: 'k',
      sort,
      at: 1_000_000,
      progress: {
        carrier: 'cdek',
        state: 'unavailable',
        kind: 'temporarily_skipped',
        retryInMs: 25_000,
        elapsedMs: 1,
      },
    });
    expect(s.carriers[0]).toMatchObject({ kind: 'temporarily_skipped', retryAt: 1_025_000 });
    expect(failedOf(s.carriers)).toEqual([{ code: 'cdek', kind: 'temporarily_skipped', detail: undefined }]);
  });

  it('formats it as hours, minutes and seconds in either language', () => {
    const at = Date.UTC(2025, 2, 12, 11, 32, 5);
    expect(formatTimeOfDay(at, 'ru', 'Europe/Moscow')).toBe('14:32:05');
    expect(formatTimeOfDay(at, 'en', 'Europe/Moscow')).toBe('14:32:05');
  });
});
