import { describe, expect, it } from 'vitest';
import { DEFAULT_WARM_UP_ORIGIN, warmUpRoute, type PastRoute } from '../../../../core/platform/warm-up-route';

const route = (
  source: PastRoute['source'],
  from: [string, string | null],
  to: [string, string | null],
): PastRoute => ({
  source,
  from: { city: from[0], postal_code: from[1] },
  to: { city: to[0], postal_code: to[1] },
});

describe('warmUpRoute', () => {
  it('without history: Москва → Санкт-Петербург', () => {
    expect(warmUpRoute([])).toEqual({
      from: DEFAULT_WARM_UP_ORIGIN,
      to: { city: 'Санкт-Петербург', postal_code: '190000' },
    });
  });

  it("the latest desk quote's route, over a later /v1 one", () => {
    const recent = [
      route('api', ['Омск', '644000'], ['Томск', '634000']),
      route('desk', ['Казань', '420000'], ['Самара', '443000']),
      route('desk', ['Пермь', '614000'], ['Уфа', '450000']),
    ];
    expect(warmUpRoute(recent)).toEqual({
      from: { city: 'Казань', postal_code: '420000' },
      to: { city: 'Самара', postal_code: '443000' },
    });
  });

  it('a /v1 route when the desk has none', () => {
    expect(warmUpRoute([route('api', ['Омск', null], ['Томск', '634000'])])).toEqual({
      from: { city: 'Омск', postal_code: null },
      to: { city: 'Томск', postal_code: '634000' },
    });
  });

  it('skips routes with a sandbox trigger code (a deliberate hang or failure)', () => {
    const recent = [
      route('desk', ['Москва', '101000'], ['Казань', '999911']),
      route('desk', ['Тула', '300000'], ['Орёл', '302000']),
    ];
    expect(warmUpRoute(recent).to).toEqual({ city: 'Орёл', postal_code: '302000' });
  });

  it('a quote within one town keeps its origin and warms another destination', () => {
    expect(warmUpRoute([route('desk', ['Санкт-Петербург', null], ['санкт-петербург', null])])).toEqual({
      from: { city: 'Санкт-Петербург', postal_code: null },
      to: { city: 'Москва', postal_code: '101000' },
    });
  });
});
