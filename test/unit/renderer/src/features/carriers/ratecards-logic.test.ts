// The rate cards section's pure helpers: the import form's checks (the core's own schemas), a code proposed
// from the file's name, and a refused file's problems grouped by line.
import { describe, expect, it } from 'vitest';
import {
  checkCardForm,
  codeFromFileName,
  fileLevelProblem,
  hasProblems,
  problemParams,
  problemsByLine,
} from '../../../../../../renderer/src/features/carriers/ratecards/logic';
import { render } from '../../../../../../renderer/src/i18n/define';
import { ratecards } from '../../../../../../renderer/src/i18n/ratecards';

describe('checkCardForm', () => {
  it('accepts a good form, the divisor left empty meaning the default', () => {
    expect(checkCardForm({ code: 'courier-1', name: 'Курьер', divisor: '' })).toEqual({});
    expect(checkCardForm({ code: ' courier ', name: ' Курьер ', divisor: '6 000' })).toEqual({});
  });

  it('names each field that is wrong, by the same rules as the core', () => {
    const p = checkCardForm({ code: 'Courier X', name: 'я'.repeat(65), divisor: '5e3' });
    expect(p).toEqual({ code: 'format', name: 'length', divisor: 'format' });
    expect(hasProblems(p)).toBe(true);
    expect(checkCardForm({ code: '', name: '', divisor: '100' })).toEqual({
      code: 'empty',
      name: 'empty',
      divisor: 'range',
    });
    expect(checkCardForm({ code: 'c'.repeat(41), name: 'a\u0007b', divisor: '20001' })).toEqual({
      code: 'format',
      name: 'control',
      divisor: 'range',
    });
  });
});

it('proposes a code from the file name', () => {
  expect(codeFromFileName('city-courier.csv')).toBe('city-courier');
  expect(codeFromFileName('Courier Plus 2025.CSV')).toBe('courier-plus-2025');
  expect(codeFromFileName('Курьер.csv')).toBe('');
  expect(codeFromFileName(`${'a'.repeat(39)}-b.csv`)).toBe('a'.repeat(39));
});

it('groups problems by line and words each in both languages', () => {
  const problems = [
    { line: 3, kind: 'bad_price' as const, column: 'price_rub', value: '1,234' },
    { line: 3, kind: 'days_order' as const, value: '5 > 2' },
    { line: 7, kind: 'duplicate_row' as const, other_line: 4 },
  ];
  const lines = problemsByLine(problems);
  expect(lines.map(([line, list]) => [line, list.length])).toEqual([
    [3, 2],
    [7, 1],
  ]);
  // Without the file's header (an older core), a column is named in the UI language's words.
  expect(render(ratecards.ru['problem.bad_price'], problemParams(problems[0]!, 'ru'))).toBe(
    'цена, ₽: «1,234» — нужна цена в рублях, не больше 2 знаков после запятой',
  );
  expect(render(ratecards.en['problem.duplicate_row'], problemParams(problems[2]!, 'en'))).toBe(
    'the same service, from, to and max_weight_grams as line 4',
  );
  expect(render(ratecards.ru['problem.duplicate_row'], problemParams(problems[2]!, 'ru'))).toBe(
    'та же услуга, откуда, куда и вес до, что в строке 4',
  );
});

it('names a column as the file wrote it, in either language (#17 item 9)', () => {
  const english = {
    line: 2,
    kind: 'bad_price' as const,
    column: 'price_rub',
    header: 'price_rub',
    value: 'x',
  };
  const russian = { ...english, header: 'Цена, руб.' };
  expect(render(ratecards.ru['problem.bad_price'], problemParams(english, 'ru'))).toMatch(/^price_rub: «x»/);
  expect(render(ratecards.en['problem.bad_price'], problemParams(russian, 'en'))).toMatch(
    /^Цена, руб\.: “x”/,
  );
  const missing = { line: 1, kind: 'missing_column' as const, column: 'delivery_type' };
  expect(render(ratecards.ru['problem.missing_column'], problemParams(missing, 'ru'))).toBe(
    'в заголовке нет колонки «тип доставки»',
  );
});

it('says a problem with the file as a whole in one sentence, without a line', () => {
  expect(fileLevelProblem([{ line: 1, kind: 'old_excel' }])).toEqual({ line: 1, kind: 'old_excel' });
  expect(fileLevelProblem([{ line: 1, kind: 'bad_xlsx' }])?.kind).toBe('bad_xlsx');
  expect(fileLevelProblem([{ line: 3, kind: 'not_utf8' }])).toBeNull();
  expect(fileLevelProblem([{ line: 2, kind: 'bad_price', column: 'price_rub' }])).toBeNull();
  expect(render(ratecards.ru['problem.old_excel'], {})).toBe(
    'Это файл Excel 97–2003 (.xls) или защищённый паролем — сохраните его как «Книга Excel (.xlsx)» или «CSV UTF-8».',
  );
});
