// Quoting from named warehouses (#20) on a real service: «Откуда» taken from the warehouse, History naming it
// and the asker, «из всех складов» with one history row per origin and the cheapest and fastest named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Warehouse } from '../../../core/desk/contract';
import { dispatchDesk } from '../../../core/desk/dispatch';
import { bestIndex } from '../../../core/operations/origins';
import { FIRST_TWO_CARRIERS } from '../../helpers/service';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';

let desk: DeskHarness;
let podolsk: Warehouse;
let spb: Warehouse;
let novosibirsk: Warehouse;

beforeAll(async () => {
  desk = await startDesk(FIRST_TWO_CARRIERS);
  podolsk = await desk.ok('warehouses:create', { name: 'Подольск', city: 'Подольск', postal_code: '142100' });
  spb = await desk.ok('warehouses:create', {
    name: 'Питер',
    city: 'Санкт-Петербург',
    postal_code: '190000',
    default_carriers: ['cdek'],
  });
  novosibirsk = await desk.ok('warehouses:create', { name: 'Новосибирск', city: 'Новосибирск' });
});
afterAll(() => desk.close());

describe('quote:run from a warehouse', () => {
  it('asks from the warehouse’s place, and History names the warehouse', async () => {
    const q = await desk.ok('quote:run', {
      quoteKey: 'w-1',
      shipment: { ...SHIPMENT, from: { city: 'Нигде', postal_code: '000000' } },
      warehouse_id: podolsk.id,
    });
    expect(q.rates.length).toBeGreaterThan(0);
    const stored = await desk.ok('history:get', { id: q.quote_id });
    expect(stored.shipment.from).toEqual({ country: 'RU', city: 'Подольск', postal_code: '142100' });
    expect(stored).toMatchObject({ warehouse: 'Подольск', author: null });
    const [row] = await desk.ok('history:search', { warehouse: 'Подольск' });
    expect(row).toMatchObject({ id: q.quote_id, from_city: 'Подольск', warehouse: 'Подольск', author: null });
  });

  it('applies the warehouse’s default carriers when the shipment names none', async () => {
    const q = await desk.ok('quote:run', { quoteKey: 'w-2', shipment: SHIPMENT, warehouse_id: spb.id });
    expect(new Set(q.rates.map((r) => r.carrier))).toEqual(new Set(['cdek']));
    // Named carriers win over the warehouse's defaults.
    const both = await desk.ok('quote:run', {
      quoteKey: 'w-3',
      shipment: { ...SHIPMENT, carriers: ['cdek', 'russian-post'] },
      warehouse_id: spb.id,
    });
    expect(new Set(both.rates.map((r) => r.carrier))).toEqual(new Set(['cdek', 'russian-post']));
  });

  it('refuses an unknown warehouse', async () => {
    expect(await desk.fail('quote:run', { quoteKey: 'w-x', shipment: SHIPMENT, warehouse_id: 9999 })).toEqual(
      {
        code: 'not_found',
        message: 'No warehouse #9999. See "warehouses list".',
      },
    );
  });

  it('a company desk user’s quote names them; a re-run keeps the warehouse', async () => {
    const ctx = {
      ...desk.service.desk.context,
      actor: { kind: 'user' as const, name: 'anna', role: 'clerk' as const },
    };
    const r = await dispatchDesk(ctx, 'quote:run', {
      quoteKey: 'w-4',
      shipment: SHIPMENT,
      warehouse_id: podolsk.id,
    });
    if (!r.ok) throw new Error(r.error.message);
    const id = (r.value as { quote_id: number }).quote_id;
    expect(await desk.ok('history:get', { id })).toMatchObject({ author: 'anna', warehouse: 'Подольск' });
    const rerun = await desk.ok('history:rerun', { id, quoteKey: 'w-5' });
    // Re-run here by this computer's desk: its own author (none), the same warehouse.
    expect(await desk.ok('history:get', { id: rerun.quote.quote_id })).toMatchObject({
      author: null,
      warehouse: 'Подольск',
    });
    expect((await desk.ok('history:search', { author: 'anna' })).map((q) => q.id)).toEqual([id]);
    expect(
      (await desk.ok('history:search', { author: 'anna', warehouse: 'Питер' })).map((q) => q.id),
    ).toEqual([]);
    const file = await desk.ok('history:export', { format: 'csv', author: 'anna' });
    const lines = Buffer.from(file.base64, 'base64').toString('utf8').split('\r\n').slice(1, -1);
    expect(lines.length).toBeGreaterThan(0);
    // «Склад» and «Автор» are columns 11 and 12 (#21's clerk columns follow them).
    for (const line of lines) expect(line).toContain(';"Подольск";"anna";');
  });
});

describe('quote:run-origins («из всех складов»)', () => {
  it('quotes from every warehouse, one history row each, and names the cheapest and the fastest', async () => {
    const before = desk.eventsOf('quote:progress').length;
    const r = await desk.ok('quote:run-origins', { quoteKey: 'all', shipment: SHIPMENT });
    // In the order of the warehouse list.
    const listed = await desk.ok('warehouses:list');
    expect(listed).toHaveLength(3);
    expect(r.origins.map((o) => [o.warehouse_id, o.warehouse])).toEqual(listed.map((w) => [w.id, w.name]));
    for (const o of r.origins) {
      expect(o.result).not.toBeNull();
      const stored = await desk.ok('history:get', { id: o.result!.quote_id });
      expect(stored.warehouse).toBe(o.warehouse);
      expect(stored.shipment.from.city).toBe(
        { [podolsk.id]: 'Подольск', [spb.id]: 'Санкт-Петербург', [novosibirsk.id]: 'Новосибирск' }[
          o.warehouse_id
        ],
      );
      expect(o.cheapest_kopecks).toBe(Math.min(...o.result!.rates.map((x) => x.price_kopecks)));
    }
    const cheapest = bestIndex(r.origins.map((o) => o.cheapest_kopecks));
    const fastest = bestIndex(r.origins.map((o) => o.fastest_days));
    expect(r.cheapest_warehouse_id).toBe(r.origins[cheapest!]!.warehouse_id);
    expect(r.fastest_warehouse_id).toBe(fastest === null ? null : r.origins[fastest]!.warehouse_id);
    // Progress under `${quoteKey}:${warehouse_id}`, so the screen tells the runs apart.
    const keys = new Set(
      desk
        .eventsOf('quote:progress')
        .slice(before)
        .map((e) => e.quoteKey),
    );
    expect(keys).toEqual(new Set(r.origins.map((o) => `all:${o.warehouse_id}`)));
  });

  it('quotes from the warehouses asked, in that order; an unknown one refuses the whole run', async () => {
    const r = await desk.ok('quote:run-origins', {
      quoteKey: 'some',
      shipment: SHIPMENT,
      warehouse_ids: [novosibirsk.id, podolsk.id],
    });
    expect(r.origins.map((o) => o.warehouse)).toEqual(['Новосибирск', 'Подольск']);
    const rows = await desk.ok('history:search', { text: '' });
    const before = rows.length;
    expect(
      await desk.fail('quote:run-origins', {
        quoteKey: 'bad',
        shipment: SHIPMENT,
        warehouse_ids: [podolsk.id, 4242],
      }),
    ).toEqual({ code: 'not_found', message: 'No warehouse #4242.' });
    expect((await desk.ok('history:search', { text: '' })).length).toBe(before);
  });
});

describe('bestIndex', () => {
  it('picks the lowest; ties go to the first; nulls never win', () => {
    expect(bestIndex([300, 100, 100, null])).toBe(1);
    expect(bestIndex([null, 5])).toBe(1);
    expect(bestIndex([null, null])).toBeNull();
    expect(bestIndex([])).toBeNull();
    expect(bestIndex([0, 0])).toBe(0);
  });
});
