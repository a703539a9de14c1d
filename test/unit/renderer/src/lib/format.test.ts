import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDateTime,
  formatDays,
  formatInteger,
  formatKg,
  formatMoney,
  formatMoneyDelta,
  formatRoublesInput,
  formatSeconds,
  formatWeight,
  NBSP,
  NNBSP,
} from '../../../../../renderer/src/lib/format';

describe('formatMoney', () => {
  it('formats kopecks the Russian way: narrow no-break space groups, comma, no-break space before ₽', () => {
    expect(formatMoney(123450)).toBe(`1${NNBSP}234,50${NBSP}₽`);
    expect(formatMoney(41200)).toBe(`412,00${NBSP}₽`);
    expect(formatMoney(0)).toBe(`0,00${NBSP}₽`);
    expect(formatMoney(5)).toBe(`0,05${NBSP}₽`);
    expect(formatMoney(123456789)).toBe(`1${NNBSP}234${NNBSP}567,89${NBSP}₽`);
  });

  it('groups exactly as Intl.NumberFormat("ru-RU") does, only with the narrow space', () => {
    for (const roubles of [0, 7, 999, 1000, 12345, 999999, 1000000, 98765432]) {
      const intl = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 }).format(roubles);
      expect(formatInteger(roubles)).toBe(intl.replace(/[\s\u00a0\u202f]/g, NNBSP));
    }
  });

  it('never goes through a binary fraction (large values stay exact)', () => {
    expect(formatMoney(100_000_000_000)).toBe(`1${NNBSP}000${NNBSP}000${NNBSP}000,00${NBSP}₽`);
    expect(formatMoney(10)).toBe(`0,10${NBSP}₽`);
    expect(formatMoney(-150)).toBe(`−1,50${NBSP}₽`);
  });

  it('has an English variant', () => {
    expect(formatMoney(123450, 'en')).toBe(`1,234.50${NBSP}₽`);
  });

  it('signs deltas', () => {
    expect(formatMoneyDelta(1240)).toBe(`+12,40${NBSP}₽`);
    expect(formatMoneyDelta(-300)).toBe(`−3,00${NBSP}₽`);
    expect(formatMoneyDelta(0)).toBe(`0,00${NBSP}₽`);
  });
});

describe('formatInteger', () => {
  it('groups request counts', () => {
    expect(formatInteger(9874)).toBe(`9${NNBSP}874`);
    expect(formatInteger(9874, 'en')).toBe('9,874');
    expect(formatInteger(12)).toBe('12');
  });
});

describe('formatDays', () => {
  it('shows a range with an en dash, or one number', () => {
    expect(formatDays(2, 4)).toBe(`2–4${NBSP}дн.`);
    expect(formatDays(1, 1)).toBe(`1${NBSP}дн.`);
    expect(formatDays(3, null)).toBe(`от${NBSP}3${NBSP}дн.`);
    expect(formatDays(null, 5)).toBe(`до${NBSP}5${NBSP}дн.`);
    expect(formatDays(null, undefined)).toBe('—');
    expect(formatDays(4, 2)).toBe(`2–4${NBSP}дн.`);
  });

  it('has English variants with plurals', () => {
    expect(formatDays(2, 4, 'en')).toBe(`2–4${NBSP}days`);
    expect(formatDays(1, 1, 'en')).toBe(`1${NBSP}day`);
    expect(formatDays(null, 3, 'en')).toBe(`up to${NBSP}3${NBSP}days`);
  });
});

describe('small formats', () => {
  it('seconds', () => {
    expect(formatSeconds(400)).toBe(`0,4${NBSP}с`);
    expect(formatSeconds(1260)).toBe(`1,3${NBSP}с`);
    expect(formatSeconds(3)).toBe(`<0,1${NBSP}с`);
    expect(formatSeconds(600, 'en')).toBe(`0.6${NBSP}s`);
  });

  it('bytes: binary units, the size a carrier answer is judged by', () => {
    expect(formatBytes(812)).toBe(`812${NBSP}Б`);
    expect(formatBytes(421_888)).toBe(`412${NBSP}КБ`);
    expect(formatBytes(1_091_572)).toBe(`1,04${NBSP}МБ`);
    expect(formatBytes(1024 * 1024, 'en')).toBe(`1.00${NBSP}MB`);
    expect(formatBytes(55 * 1024 * 1024 + 1, 'en')).toBe(`55.00${NBSP}MB`);
  });

  it('weight', () => {
    expect(formatWeight(1200)).toBe(`1,2${NBSP}кг`);
    expect(formatWeight(350)).toBe(`0,35${NBSP}кг`);
    expect(formatWeight(12000, 'en')).toBe(`12${NBSP}kg`);
    expect(formatKg(1001)).toBe('1,001');
  });

  it('declared value back into its field', () => {
    expect(formatRoublesInput(150050)).toBe('1500,50');
    expect(formatRoublesInput(0)).toBe('0');
    expect(formatRoublesInput(100)).toBe('1');
    expect(formatRoublesInput(105, 'en')).toBe('1.05');
  });

  it('dates', () => {
    expect(formatDateTime('2025-03-12T11:05:00Z', 'ru', 'Europe/Moscow')).toBe('12.03.2025, 14:05');
    expect(formatDateTime('2025-03-12T11:05:00Z', 'en', 'UTC')).toBe('12 Mar 2025, 11:05');
    expect(formatDateTime('not a date')).toBe('—');
  });
});
