import { describe, expect, it } from 'vitest';
import { answerTariffQuery, type SimAnswer } from '../../../../../core/carriers/simulators/russian-post-calc';
import { CARRIER_TRIGGERS, SANDBOX_TRIGGERS } from '../../../../../core/carriers/sandbox-triggers';
import { allCities } from '../../../../../core/locations/cities';

const NOW = new Date('2025-03-10T07:00:00Z');
const BASE = {
  json: '',
  object: '27030',
  from: '101000',
  to: '420000',
  weight: '1200',
  size: '30x20x10',
  pack: '20',
  date: '20250310',
  time: '1000',
  errorcode: '1',
};

function ask(overrides: Record<string, string | undefined> = {}): SimAnswer {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...BASE, ...overrides })) if (v !== undefined) params.set(k, v);
  return answerTariffQuery(params, NOW);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reading the simulator's JSON
function body(a: SimAnswer): any {
  if (a.kind !== 'json') throw new Error('expected a JSON answer');
  return a.body;
}

function errorCode(a: SimAnswer): number | undefined {
  return body(a).errors?.[0]?.code;
}

describe('simulator tariff answers', () => {
  it('answers the §1.4 shape with consistent totals', () => {
    const a = ask();
    expect(a).toMatchObject({ kind: 'json', status: 200 });
    const b = body(a);
    expect(b).toMatchObject({
      version_api: 2,
      id: 27030,
      name: 'Посылка стандарт',
      ndsrate: 22,
      from: 101000,
      to: 420000,
      date: 20250310,
      time: 100000,
    });
    expect(b.pay + b.nds).toBe(b.paynds);
    expect(b.paynds).toBe(b.ground.valnds);
    expect(Number.isInteger(b.paynds)).toBe(true);
    expect(b.delivery.min).toBeLessThanOrEqual(b.delivery.max);
    expect(b.delivery.deadline).toMatch(/^\d{8}T235900$/);
    expect(b.errors).toBeUndefined();
  });

  it('is deterministic', () => {
    expect(ask()).toEqual(ask());
  });

  it('charges more for EMS and courier and delivers them sooner', () => {
    const standard = body(ask({ object: '27030' }));
    const ems = body(ask({ object: '7030' }));
    const courier = body(ask({ object: '24030' }));
    expect(ems.paynds).toBeGreaterThan(standard.paynds);
    expect(courier.paynds).toBeGreaterThan(standard.paynds);
    expect(ems.delivery.max).toBeLessThan(standard.delivery.max);
    expect(courier.delivery.max).toBeLessThan(standard.delivery.max);
  });

  it('#21: "с ОЦ и НП" (…040) needs sumoc and sumnp, refuses COD above the declared value, prices cover only', () => {
    expect(errorCode(ask({ object: '27040', sumoc: '100000' }))).toBe(1201);
    expect(body(ask({ object: '27040', sumoc: '100000' })).errors[0].msg).toContain('(sumnp)');
    expect(errorCode(ask({ object: '27040', sumoc: '100000', sumnp: '100001' }))).toBe(1200);
    expect(errorCode(ask({ object: '27040', sumoc: '100000', sumnp: '1x' }))).toBe(1301);
    const b = body(ask({ object: '27040', sumoc: '100000', sumnp: '100000' }));
    expect(b).toMatchObject({ id: 27040, mailctg: 4, cover: { val: 4000 } });
    expect(b.paynds).toBe(b.ground.valnds + b.cover.valnds);
  });

  it('adds a declared-value fee for the "с ОЦ" variants and requires sumoc for them', () => {
    const plain = body(ask({ object: '23030' }));
    const insured = body(ask({ object: '23020', sumoc: '150000' }));
    expect(insured.id).toBe(23020);
    expect(insured.paynds).toBeGreaterThan(plain.paynds);
    expect(insured.cover.val).toBe(6000);
    expect(errorCode(ask({ object: '23020' }))).toBe(1201);
  });

  it('charges the volumetric weight of a bulky parcel', () => {
    const small = body(ask({ weight: '1000', size: '10x10x10' }));
    const bulky = body(ask({ weight: '1000', size: '60x50x40' }));
    expect(bulky.paynds).toBeGreaterThan(small.paynds);
  });

  it('validates like the carrier', () => {
    expect(errorCode(ask({ object: '4242' }))).toBe(1205);
    expect(errorCode(ask({ object: undefined }))).toBe(1201);
    expect(errorCode(ask({ to: 'test' }))).toBe(1301);
    expect(body(ask({ to: 'test' })).errors[0].msg).toMatch(
      /"Индекс места назначения" \(to\)\. значение "test"/,
    );
    expect(errorCode(ask({ to: '000000' }))).toBe(1207);
    expect(errorCode(ask({ from: '000001' }))).toBe(1207);
    expect(errorCode(ask({ from: undefined }))).toBe(1201);
    expect(errorCode(ask({ weight: undefined }))).toBe(1201);
    expect(errorCode(ask({ weight: '1.5' }))).toBe(1301);
    expect(errorCode(ask({ pack: undefined, size: undefined }))).toBe(1201);
    expect(body(ask({ pack: undefined }))).toMatchObject({ paynds: expect.any(Number) });
    expect(body(ask({ size: undefined }))).toMatchObject({ paynds: expect.any(Number) });
    expect(errorCode(ask({ size: '30x20' }))).toBe(1301);
    expect(errorCode(ask({ date: '20250231' }))).toBe(1203);
    expect(errorCode(ask({ time: '2561' }))).toBe(1203);
  });

  it('refuses weights above the product limit with 1378', () => {
    expect(errorCode(ask({ object: '47030', weight: '5001' }))).toBe(1378);
    expect(body(ask({ object: '47030', weight: '5000' })).paynds).toBeGreaterThan(0);
    expect(errorCode(ask({ object: '7030', weight: '31501' }))).toBe(1378);
  });

  it('knows exactly the main indexes of the table, nothing merely near them (#10)', () => {
    for (const city of allCities()) {
      if (city.postalCode) expect(errorCode(ask({ to: city.postalCode })), city.name).toBeUndefined();
    }
    for (const index of ['630099', '101001', '420001', '999950']) {
      const a = ask({ to: index });
      expect(errorCode(a), index).toBe(1207);
      expect(body(a).errors[0].msg).toBe(`Отделение почтовой связи с индексом ${index} (to) не существует`);
    }
  });

  it('refuses packaging codes the calculator does not have (PackageType.cs)', () => {
    for (const pack of ['10', '11', '12', '20', '21', '22', '30', '31', '40', '41', '99'])
      expect(errorCode(ask({ pack })), pack).toBeUndefined();
    for (const pack of ['13', '50', '00', '5']) expect(errorCode(ask({ pack })), pack).toBe(1301);
  });

  it('refuses sizes over the published limits with 1378: 150 cm a side, 300 cm in all, EMS by girth', () => {
    expect(errorCode(ask({ object: '27030', weight: '5000', size: '151x10x10', pack: '99' }))).toBe(1378);
    expect(errorCode(ask({ object: '27030', weight: '5000', size: '150x100x51', pack: '99' }))).toBe(1378);
    expect(
      errorCode(ask({ object: '27030', weight: '5000', size: '150x100x50', pack: '99' })),
    ).toBeUndefined();
    // EMS: 140 + 2 × (50 + 40) = 320 cm of length plus girth.
    const ems = ask({ object: '7030', weight: '5000', size: '140x50x40', pack: '99' });
    expect(errorCode(ems)).toBe(1378);
    expect(body(ems).errors[0].msg).toBe(
      'Значение параметра "Размеры отправления" (size) 140x50x40 больше максимально допустимого',
    );
    expect(
      errorCode(ask({ object: '7020', sumoc: '100', weight: '5000', size: '140x50x40', pack: '99' })),
    ).toBe(1378);
    expect(
      errorCode(ask({ object: '24030', weight: '5000', size: '140x50x40', pack: '99' })),
    ).toBeUndefined();
  });

  it('honours errorcode: 400 with errorcode=1, 200 otherwise, errors[] either way', () => {
    expect(ask({ object: '4242' })).toMatchObject({ status: 400 });
    expect(ask({ object: '4242', errorcode: '0' })).toMatchObject({ status: 200 });
    expect(ask({ object: '4242', errorcode: undefined })).toMatchObject({ status: 200 });
  });

  it('obeys the sandbox triggers', () => {
    expect(ask({ to: CARRIER_TRIGGERS['russian-post'].timeout })).toEqual({ kind: 'hang' });
    expect(ask({ to: SANDBOX_TRIGGERS.allTimeout })).toEqual({ kind: 'hang' });
    const error = ask({ to: CARRIER_TRIGGERS['russian-post'].error });
    expect(error).toMatchObject({ status: 500 });
    expect(errorCode(error)).toBe(5000);
    expect(errorCode(ask({ to: CARRIER_TRIGGERS['russian-post'].noService }))).toBe(1209);
    expect(errorCode(ask({ to: SANDBOX_TRIGGERS.allNoService, object: '7030' }))).toBe(1209);
    // Another carrier's trigger is an ordinary index here: it must not knock Russian Post out.
    for (const code of [
      CARRIER_TRIGGERS.cdek.error,
      CARRIER_TRIGGERS.cdek.timeout,
      CARRIER_TRIGGERS.cdek.noService,
    ]) {
      expect(body(ask({ to: code })).paynds).toBeGreaterThan(0);
    }
    expect(errorCode(ask({ to: '999950' }))).toBe(1207);
  });
});
