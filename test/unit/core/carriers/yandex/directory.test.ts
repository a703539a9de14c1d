// Yandex's pickup-points/list answer → points: the record as the simulator writes it from the live capture,
// payment on receipt as COD, card_on_receipt as card, terminals as postamats; no limits published (null).
import { describe, expect, it } from 'vitest';
import { readPointList } from '../../../../../core/carriers/yandex/directory';
import { pointRecord, townPoints } from '../../../../../core/carriers/simulators/yandex-points';
import { findCity } from '../../../../../core/locations/cities';

describe('Yandex pickup-points/list as a directory', () => {
  const kazan = findCity('Казань')!;
  const sim = townPoints(43, { ...kazan, postalCode: kazan.postalCode! }, null).slice(0, 40);

  it('maps every record', () => {
    const points = readPointList(200, { points: sim.map(pointRecord) });
    expect(points).toHaveLength(sim.length);
    const first = points[0]!;
    expect(first).toMatchObject({
      code: sim[0]!.id,
      lat: sim[0]!.lat,
      lon: sim[0]!.lon,
      max_weight_grams: null,
      max_dimensions_cm: null,
      card: sim[0]!.card,
      cod: sim[0]!.card,
    });
    expect(first.hours).toMatch(/^Пн \d\d:\d\d-\d\d:\d\d; Вт /);
    expect(first.address).toContain('Казань');
    const terminal = sim.findIndex((p) => p.type === 'terminal');
    if (terminal >= 0) expect(points[terminal]!.kind).toBe('postamat');
  });

  it('cash on receipt counts as COD without a card', () => {
    const record = { ...pointRecord(sim[0]!), payment_methods: ['already_paid', 'cash_on_receipt'] };
    expect(readPointList(200, { points: [record] })[0]).toMatchObject({ cod: true, card: false });
  });

  it('an error status or body is a failure', () => {
    expect(() => readPointList(400, { code: 'validation_error' })).toThrow(/HTTP 400/);
    expect(() => readPointList(200, { nothing: [] })).toThrow(/unexpected body/);
  });
});
