// Each carrier's kind of days and cut-off (#21 item 3): from its descriptor through its settings, changed by
// an admin's setting, calendar days and no cut-off for a carrier without settings (a rate card), the imported
// calendar years in force; and a rate's own kind of days winning over its carrier's when the rate is finished.
import { describe, expect, it } from 'vitest';
import { CARRIER_DESCRIPTORS } from '../../../../core/carriers/built-in';
import { dayRulesFor } from '../../../../core/quote/day-rules';
import { finishRate } from '../../../../core/quote/finish';
import { reduceYearFile } from '../../../../core/quote/calendar/calendar';
import { SettingsView } from '../../../../core/settings/view';
import type { CarrierRate } from '../../../../core/contract/quote-ext';

const view = (stored: Record<string, string> = {}) =>
  new SettingsView({ snapshot: () => new Map(Object.entries(stored)) });

describe('dayRulesFor', () => {
  it("starts from each carrier's descriptor", () => {
    const settings = view();
    for (const d of CARRIER_DESCRIPTORS) {
      const rules = dayRulesFor(d.code, settings);
      expect(rules.kind, d.code).toBe(d.days.kind);
      expect(rules.cutoffHour, d.code).toBe(24);
    }
    expect(dayRulesFor('boxberry', settings).kind).toBe('working');
    expect(dayRulesFor('pek', settings).kind).toBe('calendar');
    expect(dayRulesFor('russian-post', settings).kind).toBe('calendar');
  });

  it('follows the settings an admin changed', () => {
    const rules = dayRulesFor(
      'cdek',
      view({ 'carriers.cdek.days_kind': 'working', 'carriers.cdek.cutoff': '14:45' }),
    );
    expect(rules).toMatchObject({ kind: 'working', cutoffHour: 14.75 });
  });

  it('gives a carrier without settings (a rate card) calendar days and no cut-off', () => {
    expect(dayRulesFor('my-courier', view())).toMatchObject({ kind: 'calendar', cutoffHour: 24 });
  });

  it('carries the calendar with the imported years', () => {
    const r = reduceYearFile(
      {
        year: 2026,
        source: 'test',
        days_off: [
          '2026-01-01',
          '2026-01-02',
          '2026-01-05',
          '2026-01-06',
          '2026-01-07',
          '2026-01-08',
          '2026-01-09',
          '2026-02-23',
          '2026-03-09',
          '2026-05-01',
          '2026-05-11',
          '2026-06-12',
          '2026-11-04',
          '2026-12-31',
          '2026-11-27',
        ],
        working_days: [],
      },
      't',
    );
    if (!r.ok) throw new Error(r.error);
    const rules = dayRulesFor(
      'boxberry',
      view({ 'calendar.imported': JSON.stringify({ '2026': r.stored }) }),
    );
    expect(rules.calendar?.isDayOff('2026-11-27')).toBe(true);
    expect(dayRulesFor('boxberry', view()).calendar?.isDayOff('2026-11-27')).toBe(false);
  });
});

describe('finishRate', () => {
  const rate: CarrierRate = {
    carrier: 'cdek',
    carrier_name: 'СДЭК',
    service_code: 'cdek:136',
    service_name: 'Посылка склад-склад',
    delivery_type: 'pickup_point',
    price_kopecks: 35000,
    currency: 'RUB',
    days_min: 3,
    days_max: 3,
    price_type: 'public',
  };
  const ctx = {
    shipment: {
      from: { country: 'RU' as const, city: 'Москва' },
      to: { country: 'RU' as const, city: 'Казань' },
      parcel: { weight_grams: 1000, length_cm: 10, width_cm: 10, height_cm: 10 },
      declared_value_kopecks: 0,
      cod_kopecks: 0,
    },
    // Thursday 26 November 2026, 10:00 in Moscow.
    now: new Date('2026-11-26T07:00:00Z'),
    dayRules: (carrier: string) => dayRulesFor(carrier, view()),
    pricing: [],
  };

  it("counts in the carrier's kind of days", () => {
    expect(finishRate(rate, ctx)).toMatchObject({
      days_kind: 'calendar',
      ship_date: '2026-11-26',
      delivery_date_min: '2026-11-29',
    });
  });

  it("lets the rate's own kind of days win (CDEK's period_* are working days)", () => {
    expect(finishRate({ ...rate, days_kind: 'working' }, ctx)).toMatchObject({
      days_kind: 'working',
      delivery_date_min: '2026-12-01',
    });
  });
});
