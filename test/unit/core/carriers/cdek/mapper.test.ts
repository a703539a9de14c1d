import { describe, expect, it } from 'vitest';
import { classifyErrors, isKnownCode } from '../../../../../core/carriers/cdek/errors';
import {
  mapTariffItem,
  mapTariffListResponse,
  pickDays,
  readTariffList,
} from '../../../../../core/carriers/cdek/mapper';
import { buildTariffListRequest } from '../../../../../core/carriers/cdek/request';
import { CdekTariffListEnvelope, CdekTokenResponse } from '../../../../../core/carriers/cdek/schema';
import { deliveryTypeForMode } from '../../../../../core/carriers/cdek/tariffs';

const item = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  tariff_code: 137,
  tariff_name: 'Посылка склад-дверь',
  delivery_mode: 3,
  delivery_sum: 640.5,
  period_min: 3,
  period_max: 5,
  ...over,
});

describe('CDEK mapper: price', () => {
  it.each([
    [2450.5, 245_050],
    [640.5, 64_050],
    [480, 48_000],
    [8.255, 826],
    [8.253, 825],
    [0.1, 10],
    [1.005, 101],
    ['455.00', 45_500],
  ])('delivery_sum %s roubles → %i kopecks', (sum, kopecks) => {
    expect(mapTariffItem(item({ delivery_sum: sum }))?.price_kopecks).toBe(kopecks);
  });

  it('drops an item whose price cannot be read', () => {
    expect(mapTariffItem(item({ delivery_sum: '12,50' }))).toBeNull();
    expect(mapTariffItem(item({ delivery_sum: -1 }))).toBeNull();
    expect(mapTariffItem(item({ delivery_sum: undefined }))).toBeNull();
  });
});

describe('CDEK mapper: fields', () => {
  it('maps a full item to a Rate', () => {
    expect(
      mapTariffItem(item({ calendar_min: 3, calendar_max: 6, tariff_description: 'x', extra: { a: 1 } })),
    ).toEqual({
      carrier: 'cdek',
      carrier_name: 'СДЭК',
      service_code: 'cdek:137',
      service_name: 'Посылка склад-дверь',
      delivery_type: 'door',
      price_kopecks: 64_050,
      currency: 'RUB',
      days_min: 3,
      days_max: 6,
      price_type: 'public',
    });
  });

  it('prefers calendar days, falls back to working days, never mixes the two', () => {
    expect(pickDays({ period_min: 2, period_max: 4, calendar_min: 3, calendar_max: 6 })).toEqual([3, 6]);
    expect(pickDays({ period_min: 2, period_max: 4 })).toEqual([2, 4]);
    expect(pickDays({ period_min: 2, period_max: 4, calendar_min: 3 })).toEqual([2, 4]);
    expect(pickDays({ period_min: 5, period_max: 3 })).toEqual([3, 5]);
    expect(pickDays({ calendar_max: 7 })).toEqual([7, 7]);
    expect(pickDays({})).toEqual([null, null]);
  });

  it("marks a rate whose days are CDEK's working-day period_* as working days (#21 delivery dates)", () => {
    const base = {
      tariff_code: 136,
      tariff_name: 'Посылка склад-склад',
      delivery_mode: 4,
      delivery_sum: 455,
    };
    expect(mapTariffItem({ ...base, period_min: 2, period_max: 4 })?.days_kind).toBe('working');
    expect(mapTariffItem({ ...base, period_min: 2, period_max: 4, calendar_min: 3 })?.days_kind).toBe(
      'working',
    );
    expect(
      mapTariffItem({ ...base, period_min: 2, period_max: 4, calendar_min: 3, calendar_max: 6 })?.days_kind,
    ).toBe(undefined);
    expect(mapTariffItem({ ...base, calendar_max: 7 })?.days_kind).toBe(undefined);
    expect(mapTariffItem(base)?.days_kind).toBe(undefined);
  });

  it('ignores a malformed optional day field instead of dropping the item', () => {
    const rate = mapTariffItem(item({ calendar_min: 'soon', calendar_max: 6 }));
    expect(rate).not.toBeNull();
    expect([rate?.days_min, rate?.days_max]).toEqual([3, 5]);
  });

  it.each([
    [1, 'door'],
    [3, 'door'],
    [8, 'door'],
    [2, 'pickup_point'],
    [4, 'pickup_point'],
    [9, 'pickup_point'],
    [6, 'pickup_point'],
    [7, 'pickup_point'],
    [10, 'pickup_point'],
    [5, 'unknown'],
    [42, 'unknown'],
    [undefined, 'unknown'],
  ] as const)('delivery_mode %s → %s', (mode, type) => {
    expect(deliveryTypeForMode(mode)).toBe(type);
    expect(mapTariffItem(item({ delivery_mode: mode }))?.delivery_type).toBe(type);
  });
});

describe('CDEK mapper: whole responses', () => {
  it('keeps the valid tariffs when some items are broken', () => {
    const out = mapTariffListResponse(200, {
      tariff_codes: [
        item(),
        { tariff_code: 'x' },
        null,
        item({ tariff_code: 136, delivery_mode: 4, delivery_sum: 455 }),
      ],
    });
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.rates.map((r) => r.service_code)).toEqual(['cdek:137', 'cdek:136']);
  });

  it('empty tariff_codes → no_service', () => {
    expect(mapTariffListResponse(200, { tariff_codes: [] })).toMatchObject({ ok: false, kind: 'no_service' });
  });

  it('only broken items → carrier_error', () => {
    expect(mapTariffListResponse(200, { tariff_codes: [{ nope: 1 }] })).toMatchObject({
      ok: false,
      kind: 'carrier_error',
    });
  });

  it('location errors with 200 or 400 → no_service with the message', () => {
    const body = {
      errors: [
        { code: 'v2_recipient_location_not_recognized', message: 'Не удалось определить город получателя' },
      ],
    };
    for (const status of [200, 400]) {
      expect(mapTariffListResponse(status, body)).toEqual({
        ok: false,
        kind: 'no_service',
        detail: 'v2_recipient_location_not_recognized: Не удалось определить город получателя',
      });
    }
  });

  // The answer captured in a CDEK client's tests (code-search id 70939038982): with 200 or 400.
  const serviceEmpty = {
    errors: [
      {
        code: 'err_result_service_empty',
        additional_code: '0xBC236B02',
        message: 'По данному направлению при заданных условиях выбранный тариф недоступен',
      },
    ],
  };

  it('err_result_service_empty and the other unserved-route codes → no_service (#10)', () => {
    for (const status of [200, 400]) {
      expect(readTariffList(status, serviceEmpty)).toEqual({
        outcome: {
          ok: false,
          kind: 'no_service',
          detail:
            'err_result_service_empty: По данному направлению при заданных условиях выбранный тариф недоступен',
        },
        noTariff: true,
        unknownCodes: [],
      });
    }
    for (const code of [
      'ERR_RESULT_SERVICE_EMPTY', // API v1.5 spelling
      'err_invalid_tarifftypecode',
      'ERR_INVALID_TARIFF_WITH_DATETIMEORDERSEND',
    ]) {
      expect(readTariffList(400, { errors: [{ code, message: 'm' }] }), code).toMatchObject({
        outcome: { ok: false, kind: 'no_service' },
        noTariff: true,
        unknownCodes: [],
      });
    }
    for (const code of ['v2_sender_location_not_recognized', 'ERR_RECCITYPOSTCODE', 'ERR_SENDCITYPOSTCODE']) {
      // An unserved place: no_service, and another contract type would not change it.
      expect(readTariffList(400, { errors: [{ code }] }), code).toMatchObject({
        outcome: { ok: false, kind: 'no_service' },
        noTariff: false,
        unknownCodes: [],
      });
    }
    // An empty list is "no tariff" too.
    expect(readTariffList(200, { tariff_codes: [] })).toMatchObject({ noTariff: true });
  });

  it('names the codes it does not know, whatever they mean (for the log)', () => {
    expect(readTariffList(400, { errors: [{ code: 'v2_brand_new' }] })).toMatchObject({
      outcome: { kind: 'carrier_error' },
      unknownCodes: ['v2_brand_new'],
    });
    // Read by its words as "no tariff", still unknown.
    expect(readTariffList(400, { errors: [{ code: 'tariff_not_available_now' }] })).toMatchObject({
      outcome: { kind: 'no_service' },
      noTariff: true,
      unknownCodes: ['tariff_not_available_now'],
    });
    expect(
      readTariffList(400, { errors: [{ code: 'v2_invalid_value_type' }, { code: 'v2_token_expired' }] })
        .unknownCodes,
    ).toEqual([]);
    expect(isKnownCode('V2_INTERNAL_ERROR')).toBe(true);
    // Tariffs win, but an unknown code alongside them is still reported.
    expect(readTariffList(200, { tariff_codes: [item()], errors: [{ code: 'v2_note' }] })).toMatchObject({
      outcome: { ok: true },
      unknownCodes: ['v2_note'],
    });
  });

  it('other errors → carrier_error naming the code', () => {
    const out = mapTariffListResponse(400, {
      errors: [{ code: 'v2_invalid_value_type', message: 'Invalid value type in [currency] field' }],
    });
    expect(out).toMatchObject({ ok: false, kind: 'carrier_error' });
    if (!out.ok && out.kind === 'carrier_error') expect(out.detail).toContain('v2_invalid_value_type');
    // A mix is not "no service": something besides the route is wrong.
    expect(
      classifyErrors([
        { code: 'v2_sender_location_not_recognized' },
        { code: 'v2_field_is_empty', message: 'packages' },
      ]).kind,
    ).toBe('carrier_error');
  });

  it('5xx, bad JSON, unexpected bodies and bare 4xx → carrier_error', () => {
    expect(mapTariffListResponse(500, { errors: [{ code: 'v2_internal_error', message: 'boom' }] })).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'CDEK HTTP 500: v2_internal_error: boom',
    });
    expect(mapTariffListResponse(502, undefined)).toMatchObject({ kind: 'carrier_error' });
    expect(mapTariffListResponse(200, undefined)).toMatchObject({ kind: 'carrier_error' });
    expect(mapTariffListResponse(200, [1, 2])).toMatchObject({ kind: 'carrier_error' });
    expect(mapTariffListResponse(200, { tariff_codes: 'none' })).toMatchObject({ kind: 'carrier_error' });
    expect(mapTariffListResponse(200, {})).toMatchObject({ kind: 'carrier_error' });
    expect(mapTariffListResponse(404, {})).toEqual({
      ok: false,
      kind: 'carrier_error',
      detail: 'CDEK HTTP 404',
    });
  });

  it('tariffs in a 200 win over accompanying errors', () => {
    const out = mapTariffListResponse(200, {
      tariff_codes: [item()],
      errors: [{ code: 'v2_something', message: 'note' }],
    });
    expect(out.ok).toBe(true);
  });
});

describe('CDEK schemas are tolerant', () => {
  it('token: extra fields fine, missing expires_in fine, bad expires_in ignored', () => {
    expect(
      CdekTokenResponse.parse({
        access_token: 't',
        token_type: 'bearer',
        expires_in: 3599,
        scope: 's',
        jti: 'j',
      }).expires_in,
    ).toBe(3599);
    expect(CdekTokenResponse.parse({ access_token: 't' }).expires_in).toBeUndefined();
    expect(CdekTokenResponse.parse({ access_token: 't', expires_in: 'soon' }).expires_in).toBeUndefined();
    expect(CdekTokenResponse.safeParse({ token_type: 'bearer' }).success).toBe(false);
    expect(CdekTokenResponse.safeParse({ access_token: '' }).success).toBe(false);
  });

  it('tarifflist envelope: unknown fields kept, broken error entries dropped', () => {
    const env = CdekTariffListEnvelope.parse({
      tariff_codes: [],
      errors: [{ code: 'a', message: 'm', extra: 1 }, { message: 'no code' }, 'junk'],
      warnings: [],
    });
    expect(env.errors).toEqual([{ code: 'a', message: 'm', extra: 1 }]);
    expect(CdekTariffListEnvelope.parse({}).errors).toEqual([]);
  });

  it('items without description, with delivery_date_range, with string sums', () => {
    const rate = mapTariffItem({
      tariff_code: 483,
      tariff_name: 'Экспресс склад-склад',
      delivery_mode: 4,
      delivery_sum: '610.0',
      period_min: 2,
      period_max: 3,
      delivery_date_range: { min: '2026-01-01', max: '2026-01-03' },
    });
    expect(rate).toMatchObject({
      service_code: 'cdek:483',
      price_kopecks: 61_000,
      delivery_type: 'pickup_point',
      days_min: 2,
      days_max: 3,
    });
  });
});

describe('CDEK request body', () => {
  it('sends the contract type it is given', () => {
    const loc = { code: 44 } as const;
    const parcel = { weight_grams: 1, length_cm: 1, width_cm: 1, height_cm: 1 };
    expect(buildTariffListRequest(loc, loc, parcel, 2).type).toBe(2);
    expect(buildTariffListRequest(loc, loc, parcel).type).toBe(1);
  });

  it('sends grams and whole centimetres rounded up, one package, shop type', () => {
    const body = buildTariffListRequest(
      { code: 44 },
      { postal_code: '630000', country_code: 'RU', city: 'Новосибирск' },
      {
        weight_grams: 1200,
        length_cm: 30,
        width_cm: 20.1,
        height_cm: 0.5,
      },
    );
    expect(body).toEqual({
      type: 1,
      lang: 'rus',
      from_location: { code: 44 },
      to_location: { postal_code: '630000', country_code: 'RU', city: 'Новосибирск' },
      packages: [{ weight: 1200, length: 30, width: 21, height: 1 }],
    });
  });
});
