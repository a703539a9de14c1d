// The bulk file's words, declared once for the screen and the export (core/contract/operations/bulk-words.ts).
import { describe, expect, it } from 'vitest';
import {
  BULK_FIELD_NAMES,
  BULK_FIELDS,
  BULK_PROBLEM_TEXTS,
  BulkProblemKind,
  bulkProblemText,
} from '../../../../../core/contract/operations';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

describe('bulk words', () => {
  it('every field and every problem has words in both languages, with the same placeholders', () => {
    for (const field of BULK_FIELDS) {
      expect(BULK_FIELD_NAMES.ru[field], field).toMatch(/[А-Яа-яЁё]/);
      expect(BULK_FIELD_NAMES.en[field], field).toMatch(/^[\x20-\x7e]+$/);
    }
    for (const kind of BulkProblemKind.options) {
      expect(placeholders(BULK_PROBLEM_TEXTS.ru[kind]), kind).toEqual(
        placeholders(BULK_PROBLEM_TEXTS.en[kind]),
      );
    }
  });

  it("a problem says the field by the screen's name and the value as found, in either language", () => {
    const p = { line: 7, kind: 'bad_weight' as const, field: 'weight_kg' as const, value: 'много' };
    expect(bulkProblemText(p, 'ru')).toBe('«Вес, кг»: «много» — не вес от 1 г до 1000 кг');
    expect(bulkProblemText(p, 'en')).toBe('"Weight, kg": "много" is not a weight from 1 g to 1000 kg');
    expect(bulkProblemText({ line: 1, kind: 'no_weight' }, 'ru')).toBe('нет веса');
  });

  it('a value that looks like a replacement pattern is written as it is', () => {
    const p = { line: 2, kind: 'bad_postal_code' as const, field: 'to_postal_code' as const, value: "$&$'1" };
    expect(bulkProblemText(p, 'en')).toBe('"To: postal code": "$&$\'1" is not a 6-digit postal code');
  });
});
