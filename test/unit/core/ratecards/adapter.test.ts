// Quoting from a rate card: which row applies (city, then the longest postal prefix, then *; from before to),
// which band (the smallest that carries the billable weight, volumetric weight included), the declared-value
// percent, and no_service when nothing applies.
import { describe, expect, it } from 'vitest';
import type { Parcel } from '../../../../core/contract/v1';
import type { CarrierOutcome, CarrierQuoteRequest } from '../../../../core/carriers/types';
import {
  billableWeightGrams,
  createRateCardAdapter,
  declaredValueCharge,
} from '../../../../core/ratecards/adapter';
import { cityKey } from '../../../../core/ratecards/cities';
import { parseRateCard } from '../../../../core/ratecards/parse';
import { makeQuoteRequest } from '../../../../core/carriers/quote-request';

const HEADER =
  'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type,service_code,service_name,declared_value_percent';

function card(lines: string[], volumetricDivisor = 5000) {
  const { rows, problems } = parseRateCard([HEADER, ...lines].join('\n'), { cityKey: (n) => cityKey(n) });
  expect(problems).toEqual([]);
  return createRateCardAdapter({ code: 'courier', name: 'Курьер Плюс', volumetricDivisor, rows });
}

const SMALL: Parcel = { weight_grams: 500, length_cm: 10, width_cm: 10, height_cm: 10 };

interface Where {
  from?: string;
  fromPostal?: string | null;
  to?: string;
  toPostal?: string | null;
  parcel?: Parcel;
  declared?: number;
}

function ask(adapter: ReturnType<typeof card>, w: Where = {}): Promise<CarrierOutcome> {
  return adapter.quote(
    makeQuoteRequest({
      from: { city: w.from ?? 'Москва', postalCode: w.fromPostal ?? null },
      to: { city: w.to ?? 'Казань', postalCode: w.toPostal ?? null },
      parcel: w.parcel ?? SMALL,
      declaredValueKopecks: w.declared ?? 0,
    }),
    { signal: new AbortController().signal },
  );
}

/** The price of the one rate, or the failure kind. */
async function price(adapter: ReturnType<typeof card>, w: Where = {}): Promise<number | string> {
  const o = await ask(adapter, w);
  if (!o.ok) return o.kind;
  expect(o.rates).toHaveLength(1);
  return o.rates[0]!.price_kopecks;
}

describe('precedence: city, then the longest prefix, then *', () => {
  const adapter = card([
    '*,*,5000,100,1,2,door,,,',
    '*,4,5000,200,1,2,door,,,',
    '*,42,5000,300,1,2,door,,,',
    '*,420,5000,400,1,2,door,,,',
    '*,Казань,5000,500,1,2,door,,,',
  ]);

  it('a city row wins over every prefix', async () => {
    expect(await price(adapter, { to: 'Казань', toPostal: '420000' })).toBe(50000);
  });

  it('the city matches however the city field takes it: case, ё, "г.", aliases', async () => {
    expect(await price(adapter, { to: 'г. казань' })).toBe(50000);
    expect(await price(adapter, { to: 'Kazan' })).toBe(50000);
  });

  it('the longest prefix of the postal code given wins over shorter ones and *', async () => {
    expect(await price(adapter, { to: 'Зеленодольск', toPostal: '420500' })).toBe(40000);
    expect(await price(adapter, { to: 'Зеленодольск', toPostal: '422540' })).toBe(30000);
    expect(await price(adapter, { to: 'Саранск', toPostal: '430000' })).toBe(20000);
    expect(await price(adapter, { to: 'Ижевск', toPostal: '101000' })).toBe(10000);
  });

  it("without a postal code, a prefix row matches the city's main index", async () => {
    const byPrefix = card(['*,*,5000,100,1,2,door,,,', '*,19,5000,190,1,2,door,,,']);
    expect(await price(byPrefix, { to: 'Санкт-Петербург' })).toBe(19000);
    expect(await price(byPrefix, { to: 'спб' })).toBe(19000);
    // A place the table does not know, without a code: only * applies.
    expect(await price(byPrefix, { to: 'Деревня Малые Вишеры' })).toBe(10000);
  });

  it('from is compared first, then to', async () => {
    const both = card([
      'Москва,*,5000,100,1,2,door,,,',
      '*,Казань,5000,200,1,2,door,,,',
      '*,*,5000,300,1,2,door,,,',
    ]);
    expect(await price(both, { from: 'Москва', to: 'Казань' })).toBe(10000);
    expect(await price(both, { from: 'Самара', to: 'Казань' })).toBe(20000);
    expect(await price(both, { from: 'Самара', to: 'Омск' })).toBe(30000);
  });

  it('a city row is one city: a namesake in another region does not match', async () => {
    const kirov = card(['*,Киров,5000,100,1,2,door,,,']);
    // Киров (Кировская обл, 610000) is the one a bare "Киров" means; the Kaluga one is another city.
    expect(await price(kirov, { to: 'Киров', toPostal: '610000' })).toBe(10000);
    expect(await price(kirov, { to: 'Киров, Калужская обл' })).toBe('no_service');
  });
});

describe('bands and billable weight', () => {
  const adapter = card(['*,*,1000,100,1,2,door,,,', '*,*,5000,200,1,2,door,,,', '*,*,20000,300,1,2,door,,,']);

  it('takes the smallest band at or above the weight', async () => {
    expect(await price(adapter, { parcel: { ...SMALL, weight_grams: 1 } })).toBe(10000);
    expect(await price(adapter, { parcel: { ...SMALL, weight_grams: 1000 } })).toBe(10000);
    expect(await price(adapter, { parcel: { ...SMALL, weight_grams: 1001 } })).toBe(20000);
    expect(await price(adapter, { parcel: { ...SMALL, weight_grams: 20000 } })).toBe(30000);
  });

  it('heavier than the largest band: no_service, saying so', async () => {
    const o = await ask(adapter, { parcel: { ...SMALL, weight_grams: 20001 } });
    expect(o).toEqual({
      ok: false,
      kind: 'no_service',
      detail: 'billable weight 20001 g is over the largest band for this route (20000 g)',
    });
  });

  it('uses the volumetric weight L×W×H / divisor when it is larger (default divisor 5000)', async () => {
    // 30×20×10 = 6000 cm³ → 1.2 kg at 5000: the 1 kg parcel is billed as 1200 g, in the 5 kg band.
    const box = { weight_grams: 1000, length_cm: 30, width_cm: 20, height_cm: 10 };
    expect(billableWeightGrams(box, 5000)).toBe(1200);
    expect(await price(adapter, { parcel: box })).toBe(20000);
    // The same box at divisor 6000 weighs 1000 g volumetric: the actual 1000 g decides, in the 1 kg band.
    expect(billableWeightGrams(box, 6000)).toBe(1000);
    const lenient = card(['*,*,1000,100,1,2,door,,,', '*,*,5000,200,1,2,door,,,'], 6000);
    expect(await price(lenient, { parcel: box })).toBe(10000);
    // 100×100×100 cm = 200 kg volumetric: over every band.
    expect(
      await price(adapter, { parcel: { weight_grams: 1, length_cm: 100, width_cm: 100, height_cm: 100 } }),
    ).toBe('no_service');
  });

  it('rounds a fractional volumetric weight up to the gram, without float noise', () => {
    expect(billableWeightGrams({ weight_grams: 1, length_cm: 10.1, width_cm: 10, height_cm: 10 }, 5000)).toBe(
      202,
    );
    expect(
      billableWeightGrams({ weight_grams: 1, length_cm: 0.1, width_cm: 0.7, height_cm: 100 }, 5000),
    ).toBe(2);
  });

  it('a more specific route that cannot carry the weight leaves it to a more general one', async () => {
    const local = card(['Москва,Москва,5000,100,0,1,door,,,', '*,*,30000,900,2,3,door,,,']);
    expect(await price(local, { to: 'Москва', parcel: { ...SMALL, weight_grams: 3000 } })).toBe(10000);
    expect(await price(local, { to: 'Москва', parcel: { ...SMALL, weight_grams: 8000 } })).toBe(90000);
  });
});

describe('rates', () => {
  it('one rate per service, named by the card; service code <card>:<service_code or delivery type>', async () => {
    const adapter = card([
      '*,*,5000,300,1,2,door,exp,Экспресс,',
      '*,*,5000,200,2,4,door,eco,Эконом,',
      '*,*,5000,150,3,5,pickup_point,,,',
      '*,*,10000,250,3,5,pickup_point,,,',
    ]);
    const o = await ask(adapter);
    expect(o).toEqual({
      ok: true,
      rates: [
        {
          carrier: 'courier',
          carrier_name: 'Курьер Плюс',
          service_code: 'courier:exp',
          service_name: 'Экспресс',
          delivery_type: 'door',
          price_kopecks: 30000,
          currency: 'RUB',
          days_min: 1,
          days_max: 2,
          price_type: 'public',
          breakdown: { base_kopecks: 30000, insurance_kopecks: 0, cod_fee_kopecks: 0 },
        },
        expect.objectContaining({
          service_code: 'courier:eco',
          service_name: 'Эконом',
          price_kopecks: 20000,
        }),
        expect.objectContaining({
          service_code: 'courier:pickup_point',
          service_name: 'Курьер Плюс',
          delivery_type: 'pickup_point',
          price_kopecks: 15000,
          days_min: 3,
          days_max: 5,
        }),
      ],
    });
  });

  it('adds declared_value_percent of the declared value, rounded half up to the kopeck', async () => {
    const adapter = card(['*,*,5000,100,1,2,door,,,"1,5"']);
    // 1.5 % of 1 000,00 ₽ = 15,00 ₽.
    expect(await price(adapter, { declared: 100_000 })).toBe(10_000 + 1_500);
    // 1.5 % of 0,33 ₽ = 0.495 kopecks → 0; of 0,34 ₽ = 0.51 → 1.
    expect(await price(adapter, { declared: 33 })).toBe(10_000);
    expect(await price(adapter, { declared: 34 })).toBe(10_001);
    expect(declaredValueCharge(100, 50)).toBe(1); // 0.5 kopecks: half up
    expect(declaredValueCharge(99, 50)).toBe(0);
    expect(declaredValueCharge(100_000_000_000, 10_000)).toBe(100_000_000_000);
  });

  it('a route the card does not serve: no_service', async () => {
    const adapter = card(['Москва,Казань,5000,100,1,2,door,,,']);
    expect(await ask(adapter, { from: 'Казань', to: 'Москва' })).toEqual({
      ok: false,
      kind: 'no_service',
      detail: 'the rate card has no row for this route',
    });
  });

  it('has no limits and no timeout of its own: it never goes to the network', () => {
    const adapter = card(['*,*,5000,100,1,2,door,,,']);
    expect(adapter.limits).toBeUndefined();
    expect(adapter.timeoutMs).toBeUndefined();
    expect(adapter.code).toBe('courier');
    expect(adapter.name).toBe('Курьер Плюс');
  });
});

describe('#21: several places, declared value and cash on delivery', () => {
  const quote = (adapter: ReturnType<typeof card>, over: Partial<CarrierQuoteRequest>) =>
    adapter.quote(
      makeQuoteRequest({
        from: { city: 'Москва', postalCode: null },
        to: { city: 'Казань', postalCode: null },
        parcel: SMALL,
        declaredValueKopecks: 0,
        ...over,
      }),
      { signal: new AbortController().signal },
    );
  const BIG: Parcel = { weight_grams: 8_000, length_cm: 10, width_cm: 10, height_cm: 10 };

  it('prices place by place, each in its own band, and sums; the slowest band gives the days', async () => {
    const adapter = card(['*,*,5000,100,1,2,door,,,', '*,*,10000,250,2,4,door,,,']);
    const o = await quote(adapter, { places: [SMALL, BIG, SMALL] });
    expect(o).toMatchObject({
      ok: true,
      rates: [{ price_kopecks: 10_000 + 25_000 + 10_000, days_min: 2, days_max: 4 }],
    });
  });

  it('a service is offered only when every place fits a row of it', async () => {
    const adapter = card(['*,*,5000,100,1,2,door,a,,', '*,*,10000,250,2,4,door,b,,']);
    const o = await quote(adapter, { places: [SMALL, BIG] });
    expect(o.ok && o.rates.map((r) => r.service_code)).toEqual(['courier:b']);
    const over = await quote(adapter, { places: [SMALL, { ...BIG, weight_grams: 20_000 }] });
    expect(over).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('the declared value is shared over the places, each row adding its own percent; the breakdown says so', async () => {
    const adapter = card(['*,*,5000,100,1,2,door,,,"1"', '*,*,10000,250,2,4,door,,,"2"']);
    const o = await quote(adapter, { places: [SMALL, BIG], declaredValueKopecks: 100_000 });
    // 500,00 ₽ at 1 % and 500,00 ₽ at 2 %.
    expect(o).toMatchObject({
      ok: true,
      rates: [
        {
          price_kopecks: 35_000 + 500 + 1_000,
          breakdown: { base_kopecks: 35_000, insurance_kopecks: 1_500, cod_fee_kopecks: 0 },
        },
      ],
    });
  });

  it('cash on delivery and a declared value without a percent are reported not quoted, never dropped silently', async () => {
    const adapter = card(['*,*,5000,100,1,2,door,,,']);
    const o = await quote(adapter, { declaredValueKopecks: 100_000, codKopecks: 50_000 });
    expect(o).toMatchObject({
      ok: true,
      rates: [
        {
          price_kopecks: 10_000,
          breakdown: { base_kopecks: 10_000, insurance_kopecks: null, cod_fee_kopecks: null },
          options_not_priced: [
            expect.objectContaining({ option: 'insurance', reason: 'not_quoted' }),
            expect.objectContaining({ option: 'cod', reason: 'not_quoted' }),
          ],
        },
      ],
    });
  });
});
