import { describe, expect, it } from 'vitest';
import type { BulkRowResult } from '../../../../../../core/desk/contract';
import {
  choiceKey,
  choiceOf,
  defaultChoice,
  mergeRows,
  remap,
} from '../../../../../../renderer/src/features/bulk/logic';

const row = (line: number, rates: Array<[string, string, number]> = []): BulkRowResult =>
  ({
    line,
    reference: '',
    from_city: 'Москва',
    to_city: 'Казань',
    weight_grams: 1000,
    quote_id: line,
    rates: rates.map(([carrier, service_code, price_kopecks]) => ({ carrier, service_code, price_kopecks })),
    failures: [],
    cheapest: rates.length ? 0 : null,
    fastest: null,
    error: null,
    sandbox: true,
  }) as unknown as BulkRowResult;

describe('the Bulk screen’s logic', () => {
  it('remaps a field, and "not in the file" drops it', () => {
    expect(remap({ to_city: 1, weight_kg: 2 }, 'weight_kg', 4)).toEqual({ to_city: 1, weight_kg: 4 });
    expect(remap({ to_city: 1, weight_kg: 2 }, 'weight_kg', null)).toEqual({ to_city: 1 });
  });

  it('starts each row on its cheapest service; a choice key round-trips', () => {
    const r = row(2, [
      ['cdek', '136', 30000],
      ['boxberry', 'pvz', 40000],
    ]);
    expect(defaultChoice(r)).toEqual({ carrier: 'cdek', service_code: '136' });
    expect(defaultChoice(row(3))).toBeNull();
    expect(choiceOf(choiceKey({ carrier: 'pek', service_code: 'auto:1' }))).toEqual({
      carrier: 'pek',
      service_code: 'auto:1',
    });
  });

  it('keeps rows in the file’s order as progress arrives out of order', () => {
    const rows = [row(5), row(2)].reduce<BulkRowResult[]>((acc, r) => mergeRows(acc, r), []);
    expect(mergeRows(rows, row(3)).map((r) => r.line)).toEqual([2, 3, 5]);
    expect(mergeRows(rows, row(5)).map((r) => r.line)).toEqual([2, 5]);
  });
});
