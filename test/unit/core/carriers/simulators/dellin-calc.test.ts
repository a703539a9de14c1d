// The Dellin simulator refuses what Dellin refuses, in Dellin's error format.
import { describe, expect, it } from 'vitest';
import {
  buildCalculatorRequest,
  kladr25,
  type DellinCalcInput,
} from '../../../../../core/carriers/dellin/request';
import { answerCalculator, answerTerminals } from '../../../../../core/carriers/simulators/dellin-calc';

const KEY = 'sim-key';
const TODAY = '2026-11-24'; // a Tuesday
const MOSCOW = kladr25('7700000000000');
const KAZAN = kladr25('1600000100000');

function terminalOf(code: string, direction = 'arrival'): string {
  const a = answerTerminals({ appkey: KEY, code, direction }, KEY);
  if (a.kind !== 'reply') throw new Error('hung');
  const list = (a.body as { terminals: Array<{ id: number; default: boolean }> }).terminals;
  return String(list.find((t) => t.default)!.id);
}

const input = (over: Partial<DellinCalcInput> = {}): DellinCalcInput => ({
  appkey: KEY,
  derivalTerminalId: terminalOf(MOSCOW, 'derival'),
  derivalCityKladr: MOSCOW,
  arrival: { variant: 'terminal', terminalId: terminalOf(KAZAN) },
  produceDate: TODAY,
  places: [{ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 }],
  declaredValueKopecks: 0,
  ...over,
});

function calc(body: Record<string, unknown>, today = TODAY) {
  const a = answerCalculator(body, KEY, today);
  if (a.kind !== 'reply') throw new Error('hung');
  return a as {
    status: number;
    body: { errors?: Array<{ code: number; fields: string[] }>; data?: { price: number } };
  };
}

describe('Dellin simulator: terminals', () => {
  it('lists a large city’s terminals with a default; a small town has none; an unknown code is 117004', () => {
    const moscow = answerTerminals({ appkey: KEY, code: MOSCOW, direction: 'derival' }, KEY);
    expect(moscow.kind === 'reply' && (moscow.body as { terminals: unknown[] }).terminals).toHaveLength(2);
    const small = answerTerminals({ appkey: KEY, code: kladr25('4001100100000'), direction: 'arrival' }, KEY); // Киров, Калужская обл
    expect(small.kind === 'reply' && small.body).toEqual({ terminals: [] });
    const unknown = answerTerminals({ appkey: KEY, code: '9'.repeat(25) }, KEY);
    expect(
      unknown.kind === 'reply' && [
        unknown.status,
        (unknown.body as { errors: Array<{ code: number }> }).errors[0]!.code,
      ],
    ).toEqual([400, 117004]);
  });
});

describe('Dellin simulator: calculator', () => {
  it('prices terminal → terminal and terminal → door (dearer), in roubles, with the official envelope', () => {
    const terminal = calc(buildCalculatorRequest(input()));
    const door = calc(
      buildCalculatorRequest(
        input({ arrival: { variant: 'address', search: 'Республика Татарстан, Казань' } }),
      ),
    );
    expect(terminal.status).toBe(200);
    expect(door.body.data!.price).toBeGreaterThan(terminal.body.data!.price);
  });

  it('is cheap per kilogram for heavy freight and takes the 900 kg pallet at terminal rates', () => {
    const small = calc(buildCalculatorRequest(input())).body.data!.price;
    const pallet = calc(
      buildCalculatorRequest(
        input({ places: [{ weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 }] }),
      ),
    );
    expect(pallet.status).toBe(200);
    expect(pallet.body.data!.price / 900).toBeLessThan(small / 1.2);
  });

  it.each([
    ['no appkey', (b: Record<string, unknown>) => delete b.appkey, 401],
    ['a wrong appkey', (b: Record<string, unknown>) => (b.appkey = 'other'), 401],
    [
      'no produce date',
      (b: Record<string, unknown>) =>
        delete (b.delivery as { derival: Record<string, unknown> }).derival.produceDate,
      400,
    ],
    [
      'no cargo weight',
      (b: Record<string, unknown>) => delete (b.cargo as Record<string, unknown>).totalWeight,
      400,
    ],
    [
      'an unknown terminal',
      (b: Record<string, unknown>) =>
        ((b.delivery as { arrival: Record<string, unknown> }).arrival.terminalID = '0'),
      400,
    ],
    [
      'no payment city',
      (b: Record<string, unknown>) => delete (b.payment as Record<string, unknown>).paymentCity,
      400,
    ],
  ])('refuses %s', (_what, spoil, status) => {
    const body = buildCalculatorRequest(input());
    spoil(body);
    const a = calc(body);
    expect(a.status).toBe(status);
    expect(a.body.errors?.length).toBeGreaterThan(0);
  });

  it('refuses an oversized place not declared as such, and delivery to an address without working hours', () => {
    const body = buildCalculatorRequest(
      input({ places: [{ weight_grams: 900_000, length_cm: 300, width_cm: 300, height_cm: 300 }] }),
    );
    delete (body.cargo as Record<string, unknown>).oversizedWeight;
    expect(calc(body).body.errors![0]!.fields).toEqual(['cargo.oversizedWeight']);
    const door = buildCalculatorRequest(input({ arrival: { variant: 'address', search: 'Казань' } }));
    delete (door.delivery as { arrival: Record<string, unknown> }).arrival.time;
    expect(calc(door).body.errors![0]!.fields).toEqual(['delivery.arrival.time']);
  });

  it('refuses a past date or a Sunday with 180012; an unknown address with 180002', () => {
    expect(calc(buildCalculatorRequest(input({ produceDate: '2026-11-23' }))).body.errors![0]!.code).toBe(
      180012,
    );
    expect(calc(buildCalculatorRequest(input({ produceDate: '2026-11-29' }))).body.errors![0]!.code).toBe(
      180012,
    );
    const lost = calc(
      buildCalculatorRequest(input({ arrival: { variant: 'address', search: 'где-то там' } })),
    );
    expect(lost.body.errors![0]!.code).toBe(180002);
    const nearby = calc(
      buildCalculatorRequest(input({ arrival: { variant: 'address', search: '420111, Казань' } })),
    );
    expect(nearby.status).toBe(200);
  });

  it('obeys its trigger block on the searched address and treats other carriers’ triggers as indexes', () => {
    const door = (index: string) =>
      buildCalculatorRequest(input({ arrival: { variant: 'address', search: `${index}, Казань` } }));
    expect(answerCalculator(door('999941'), KEY, TODAY)).toEqual({ kind: 'hang' });
    expect(calc(door('999942')).status).toBe(500);
    expect(calc(door('999943')).body.errors![0]!.code).toBe(180003);
    expect(calc(door('999932')).status).toBe(200);
  });
});

describe('Dellin simulator: what Dellin documents, not what is convenient (audit, "simulators accept")', () => {
  const withArrival = (arrival: Record<string, unknown>, type = 'auto') => {
    const body = buildCalculatorRequest(input());
    const delivery = body.delivery as Record<string, unknown>;
    delivery.arrival = { time: { worktimeStart: '09:00', worktimeEnd: '18:00' }, ...arrival };
    delivery.deliveryType = { type };
    return body;
  };

  it('refuses `city` with the address variant, in Dellin’s error format (DL3)', () => {
    const a = calc(withArrival({ variant: 'address', city: KAZAN }));
    expect(a.status).toBe(400);
    expect(a.body.errors![0]!.fields).toEqual(['delivery.arrival.city']);
    expect((a.body as { metadata?: { status: number } }).metadata?.status).toBe(400);
  });

  it('geocodes a searched address by the town it names, never by the index alone', () => {
    const search = (text: string) => calc(withArrival({ variant: 'address', address: { search: text } }));
    expect(search('Республика Татарстан, Казань').status).toBe(200);
    expect(search('Омск, Ленина, 5').status).toBe(200);
    expect(search('420000').body.errors![0]!.code).toBe(180002);
    expect(search('420000, Нигдевск').body.errors![0]!.code).toBe(180002);
  });

  it('in "refuse" mode a street-less search is 180002; one with a street is priced (DL4)', () => {
    const refuse = (text: string) => {
      const a = answerCalculator(withArrival({ variant: 'address', address: { search: text } }), KEY, TODAY, {
        streetlessSearch: 'refuse',
      });
      return a.kind === 'reply' ? a : null;
    };
    expect((refuse('420000, Республика Татарстан, Казань')!.body as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({ code: 180002, fields: ['delivery.arrival.address.search'] }),
    ]);
    expect(refuse('Республика Татарстан, Казань, ул. Баумана, 1')!.status).toBe(200);
  });

  it('answers derivalToAddress for avia and express only; auto to the door has deliveryTerm (DL9)', () => {
    const dates = (type: string) => {
      const a = calc(withArrival({ variant: 'address', address: { search: 'Казань' } }, type));
      return (a.body as unknown as { data: { orderDates: Record<string, string>; deliveryTerm?: number } })
        .data;
    };
    const auto = dates('auto');
    expect(auto.orderDates).not.toHaveProperty('derivalToAddress');
    expect(auto.orderDates).toHaveProperty('arrivalToOspReceiver');
    expect(auto.deliveryTerm).toBe(1);
    expect(dates('avia').orderDates).toHaveProperty('derivalToAddress');
    expect(dates('express').orderDates).toHaveProperty('derivalToAddressMax');
    const terminal = calc(buildCalculatorRequest(input())).body as { data: Record<string, unknown> };
    expect(terminal.data).not.toHaveProperty('deliveryTerm');
  });
});

describe('Dellin simulator: several places and insurance (#21)', () => {
  const BOX = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };

  it('prices the totals and answers the insurance apart; refuses a heaviest place that does not fit the totals', () => {
    const three = buildCalculatorRequest(input({ places: [BOX, BOX, BOX], declaredValueKopecks: 1_000_000 }));
    const a = calc(three);
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ insurance: 30 });
    const bad = structuredClone(three);
    (bad.cargo as Record<string, unknown>).weight = 5; // heavier than all three together
    expect(calc(bad).body.errors![0]!.fields).toEqual(['cargo.weight']);
    const short = structuredClone(three);
    (short.cargo as Record<string, unknown>).weight = 0.5; // three places of at most 0.5 kg cannot weigh 3.6 kg
    expect(calc(short).body.errors![0]!.fields).toEqual(['cargo.weight']);
  });

  it('refuses a stated value longer than Dellin’s 12 characters', () => {
    const body = buildCalculatorRequest(input({ declaredValueKopecks: 123_456_789_012_34 }));
    expect(calc(body).body.errors![0]!.fields).toEqual(['cargo.insurance.statedValue']);
  });
});
