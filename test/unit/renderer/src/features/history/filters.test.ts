import { describe, expect, it } from 'vitest';
import type { HistoryRow } from '../../../../../../core/desk/contract';
import {
  anyValue,
  filterChoices,
  filterInput,
  NO_FILTER,
} from '../../../../../../renderer/src/features/history/logic';

describe("History's author and warehouse filters", () => {
  it('sends only what is set', () => {
    expect(filterInput(NO_FILTER)).toEqual({});
    expect(filterInput({ author: 'anna', warehouse: '' })).toEqual({ author: 'anna' });
    expect(filterInput({ author: '', warehouse: 'Подольск' })).toEqual({ warehouse: 'Подольск' });
  });

  it('offers every name once, sorted, the chosen one kept', () => {
    expect(filterChoices(['Подольск', 'Андреевка'], ['Подольск', null, 'Химки'], '', 'ru')).toEqual([
      'Андреевка',
      'Подольск',
      'Химки',
    ]);
    expect(filterChoices([], [null], 'Старый склад', 'ru')).toEqual(['Старый склад']);
    expect(filterChoices([], [null, null], '', 'en')).toEqual([]);
  });

  it('a column shows only when some row has a value', () => {
    const row = (author: string | null, warehouse: string | null) => ({ author, warehouse }) as HistoryRow;
    expect(anyValue([row(null, null)], 'warehouse')).toBe(false);
    expect(anyValue([row(null, null), row(null, 'W')], 'warehouse')).toBe(true);
    expect(anyValue([row(null, 'W')], 'author')).toBe(false);
  });
});
