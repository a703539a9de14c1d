import { describe, expect, it } from 'vitest';
import type { Rate } from '../../../../../../core/contract/v1';
import type { OriginsResult, Warehouse } from '../../../../../../core/desk/contract';
import { SETTINGS, parseSetting } from '../../../../../../core/settings/schema';
import { EMPTY_DRAFT } from '../../../../../../renderer/src/features/quote/logic';
import {
  anyOrigin,
  applyWarehouse,
  bestOfOrigin,
  formatOriginSetting,
  offersAll,
  originMarks,
  originsOf,
  parseOriginSetting,
  presetsFor,
  resolveOrigin,
} from '../../../../../../renderer/src/features/quote/warehouses';

function warehouse(id: number, over: Partial<Warehouse> = {}): Warehouse {
  return {
    id,
    name: `W${id}`,
    city: `City${id}`,
    postal_code: `10000${id}`,
    address: '',
    default_carriers: [],
    box_presets: [],
    created_at: '2026-11-27T00:00:00.000Z',
    updated_at: '2026-11-27T00:00:00.000Z',
    ...over,
  };
}

function rate(price: number, min: number | null, max: number | null, code = `s${price}`): Rate {
  return {
    carrier: 'cdek',
    carrier_name: 'CDEK',
    service_code: code,
    service_name: code,
    delivery_type: 'door',
    price_kopecks: price,
    currency: 'RUB',
    days_min: min,
    days_max: max,
    price_type: 'public',
  } as Rate;
}

describe('the remembered origin (ui.warehouse)', () => {
  it('reads and writes the setting, and the setting accepts exactly what the form writes', () => {
    expect(parseOriginSetting('')).toEqual({ kind: 'none' });
    expect(parseOriginSetting(undefined)).toEqual({ kind: 'none' });
    expect(parseOriginSetting('12')).toEqual({ kind: 'warehouse', id: 12 });
    expect(parseOriginSetting('all')).toEqual({ kind: 'all' });
    expect(parseOriginSetting('0')).toEqual({ kind: 'none' });
    expect(parseOriginSetting('x')).toEqual({ kind: 'none' });
    for (const choice of [{ kind: 'none' }, { kind: 'warehouse', id: 12 }, { kind: 'all' }] as const) {
      const text = formatOriginSetting(choice);
      expect(parseOriginSetting(text)).toEqual(choice);
      expect(parseSetting('ui.warehouse', text)).toEqual({ ok: true, value: text });
    }
    expect(parseSetting('ui.warehouse', 'Склад 1').ok).toBe(false);
    expect(SETTINGS['ui.warehouse'].default).toBe('');
  });

  it('a removed warehouse reads as none, said once; «all» needs two warehouses', () => {
    const list = [warehouse(1), warehouse(2)];
    expect(resolveOrigin({ kind: 'warehouse', id: 2 }, list)).toMatchObject({
      warehouse: { id: 2 },
      gone: false,
    });
    expect(resolveOrigin({ kind: 'warehouse', id: 9 }, list)).toEqual({
      choice: { kind: 'none' },
      warehouse: null,
      gone: true,
    });
    expect(resolveOrigin({ kind: 'all' }, list).choice).toEqual({ kind: 'all' });
    expect(resolveOrigin({ kind: 'all' }, [warehouse(1)]).choice).toEqual({ kind: 'none' });
    expect(offersAll([warehouse(1)])).toBe(false);
    expect(offersAll(list)).toBe(true);
  });
});

describe('picking a warehouse', () => {
  it('fills «Откуда» and its carriers; none of its own: the desk default', () => {
    const d = { ...EMPTY_DRAFT, toCity: 'Казань', carriers: ['pek'] };
    const own = applyWarehouse(d, warehouse(1, { default_carriers: ['cdek'], postal_code: null }), null);
    expect(own).toMatchObject({ fromCity: 'City1', fromPostal: '', toCity: 'Казань', carriers: ['cdek'] });
    expect(applyWarehouse(d, warehouse(2), ['dpd']).carriers).toEqual(['dpd']);
    expect(applyWarehouse(d, warehouse(2), null).carriers).toBeNull();
  });

  it('offers its own boxes, or the desk boxes when it has none', () => {
    const desk = [{ name: 'M', length_cm: 30, width_cm: 20, height_cm: 10 }];
    const box = { name: 'P', length_cm: 40, width_cm: 30, height_cm: 20 };
    expect(presetsFor(warehouse(1, { box_presets: [box] }), desk)).toEqual([box]);
    expect(presetsFor(warehouse(1), desk)).toEqual(desk);
    expect(presetsFor(null, desk)).toEqual(desk);
  });

  it('«из всех складов» asks each warehouse its own carriers unless the form names some', () => {
    const list = [warehouse(1, { default_carriers: ['cdek'] }), warehouse(2, { postal_code: null })];
    expect(originsOf(list, undefined, ['cdek', 'pek'])).toEqual([
      { id: 1, name: 'W1', place: 'City1 100001', wanted: ['cdek'] },
      { id: 2, name: 'W2', place: 'City2', wanted: ['cdek', 'pek'] },
    ]);
    expect(originsOf(list, ['pek'], ['cdek', 'pek']).map((o) => o.wanted)).toEqual([['pek'], ['pek']]);
    expect(anyOrigin(list)).toEqual({ city: 'City1', postal: '100001' });
    expect(anyOrigin([])).toBeNull();
  });
});

describe('the «из всех складов» result', () => {
  it("an origin's cheapest and fastest rate; fastest by the earliest day, a tie to the cheaper", () => {
    const best = bestOfOrigin([rate(500, 2, 4), rate(300, 5, 6), rate(400, 2, 3), rate(100, null, null)]);
    expect(best.cheapest?.price_kopecks).toBe(100);
    expect(best.fastest?.price_kopecks).toBe(400);
    expect(bestOfOrigin([])).toEqual({ cheapest: null, fastest: null });
  });

  it("badges follow the core's answer; one origin may be both", () => {
    const origin = (id: number) => ({
      warehouse_id: id,
      warehouse: `W${id}`,
      result: null,
      cheapest_kopecks: null,
      fastest_days: null,
    });
    const result: OriginsResult = {
      origins: [origin(1), origin(2), origin(3)],
      cheapest_warehouse_id: 2,
      fastest_warehouse_id: 3,
    };
    const marks = originMarks(result);
    expect(marks.get(1)).toEqual({ cheapest: false, fastest: false });
    expect(marks.get(2)).toEqual({ cheapest: true, fastest: false });
    expect(marks.get(3)).toEqual({ cheapest: false, fastest: true });
    const both = originMarks({ ...result, fastest_warehouse_id: 2 });
    expect(both.get(2)).toEqual({ cheapest: true, fastest: true });
    const none = originMarks({ ...result, cheapest_warehouse_id: null, fastest_warehouse_id: null });
    expect([...none.values()].some((m) => m.cheapest || m.fastest)).toBe(false);
  });
});
