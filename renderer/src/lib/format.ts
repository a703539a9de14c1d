// Numbers, money, days and dates as a clerk reads them. Pure (no DOM): unit-tested in Node.
//
// Money is an integer number of kopecks everywhere; it is split into roubles and kopecks with integer
// arithmetic, so no binary fraction ever reaches the screen. Grouping comes from Intl.NumberFormat('ru-RU');
// the group separator is then normalised to a NARROW no-break space (U+202F), the thin space of Russian
// typography, because ICU builds disagree (Node's ICU and some Chromium builds answer U+00A0) and the
// same number must look the same in every runtime. The space before "₽" is a no-break space (U+00A0), so
// a price never wraps.

export type Lang = 'ru' | 'en';

export const NNBSP = '\u202f';
export const NBSP = '\u00a0';
/** The dash of ranges: "2–4 дн." */
export const EN_DASH = '\u2013';

const LOCALE: Record<Lang, string> = { ru: 'ru-RU', en: 'en-GB' };

const integerFormats = new Map<Lang, Intl.NumberFormat>();
function integerFormat(lang: Lang): Intl.NumberFormat {
  let f = integerFormats.get(lang);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0, useGrouping: true });
    integerFormats.set(lang, f);
  }
  return f;
}

/** A whole number with thousands grouped: ru "9 874" (U+202F), en "9,874". */
export function formatInteger(n: number, lang: Lang = 'ru'): string {
  if (!Number.isFinite(n)) return '—';
  const parts = integerFormat(lang).formatToParts(Math.trunc(n));
  return parts
    .map((p) => {
      if (p.type === 'group') return lang === 'ru' ? NNBSP : ',';
      if (p.type === 'minusSign') return '−';
      return p.value;
    })
    .join('');
}

/** Kopecks as roubles: ru "1 234,50 ₽", en "1,234.50 ₽". */
export function formatMoney(kopecks: number, lang: Lang = 'ru'): string {
  if (!Number.isFinite(kopecks)) return '—';
  const k = Math.round(kopecks);
  const abs = Math.abs(k);
  const roubles = Math.floor(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  const sign = k < 0 ? '−' : '';
  const decimal = lang === 'ru' ? ',' : '.';
  return `${sign}${formatInteger(roubles, lang)}${decimal}${cents}${NBSP}₽`;
}

/** A signed price change: "+12,40 ₽", "−3,00 ₽", "0,00 ₽". */
export function formatMoneyDelta(kopecks: number, lang: Lang = 'ru'): string {
  if (kopecks > 0) return `+${formatMoney(kopecks, lang)}`;
  return formatMoney(kopecks, lang);
}

function daysWord(n: number, lang: Lang): string {
  if (lang === 'ru') return 'дн.';
  return n === 1 ? 'day' : 'days';
}

/** Transit time: "2–4 дн.", "1 дн.", "до 5 дн."; en "2–4 days", "1 day". Unknown: "—". */
export function formatDays(
  min: number | null | undefined,
  max: number | null | undefined,
  lang: Lang = 'ru',
): string {
  const lo = min ?? null;
  const hi = max ?? null;
  if (lo === null && hi === null) return '—';
  if (lo !== null && hi !== null && lo !== hi) {
    const [a, b] = lo < hi ? [lo, hi] : [hi, lo];
    return `${a}${EN_DASH}${b}${NBSP}${daysWord(b, lang)}`;
  }
  if (lo !== null && hi === null) {
    return lang === 'ru' ? `от${NBSP}${lo}${NBSP}дн.` : `${lo}+${NBSP}${daysWord(lo, lang)}`;
  }
  if (lo === null && hi !== null) {
    return lang === 'ru' ? `до${NBSP}${hi}${NBSP}дн.` : `up to${NBSP}${hi}${NBSP}${daysWord(hi, lang)}`;
  }
  const v = (lo ?? hi) as number;
  return `${v}${NBSP}${daysWord(v, lang)}`;
}

/** Elapsed time of a carrier answer: "0,4 с" / "0.4 s"; under 0.1 s shows "<0,1 с". */
export function formatSeconds(ms: number, lang: Lang = 'ru'): string {
  const unit = lang === 'ru' ? 'с' : 's';
  const decimal = lang === 'ru' ? ',' : '.';
  if (ms < 100) return `<0${decimal}1${NBSP}${unit}`;
  const tenths = Math.round(ms / 100);
  return `${Math.floor(tenths / 10)}${decimal}${tenths % 10}${NBSP}${unit}`;
}

/** An answer's size, binary units as browsers and file managers count them: "412 КБ", "1,04 МБ", "812 Б". */
export function formatBytes(bytes: number, lang: Lang = 'ru'): string {
  const [b, kb, mb] = lang === 'ru' ? ['Б', 'КБ', 'МБ'] : ['B', 'KB', 'MB'];
  if (bytes < 1024) return `${formatInteger(bytes, lang)}${NBSP}${b}`;
  if (bytes < 1024 * 1024) return `${formatInteger(Math.round(bytes / 1024), lang)}${NBSP}${kb}`;
  const hundredths = Math.round((bytes / (1024 * 1024)) * 100);
  const decimal = lang === 'ru' ? ',' : '.';
  return `${formatInteger(Math.floor(hundredths / 100), lang)}${decimal}${String(hundredths % 100).padStart(2, '0')}${NBSP}${mb}`;
}

/** Grams as kilograms with up to 3 decimals and no trailing zeros: "1,2 кг", "0,35 кг", "12 кг". */
export function formatWeight(grams: number, lang: Lang = 'ru'): string {
  return `${formatKg(grams, lang)}${NBSP}${lang === 'ru' ? 'кг' : 'kg'}`;
}

/** Grams as the text of the weight field: "1,2" (ru) / "1.2" (en). */
export function formatKg(grams: number, lang: Lang = 'ru'): string {
  const g = Math.round(grams);
  const whole = Math.floor(g / 1000);
  const frac = String(g % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  const decimal = lang === 'ru' ? ',' : '.';
  return frac === '' ? String(whole) : `${whole}${decimal}${frac}`;
}

/** A decimal number for a form field: 30 → "30", 12.5 → "12,5". */
export function formatDecimal(n: number, lang: Lang = 'ru'): string {
  const s = String(n);
  return lang === 'ru' ? s.replace('.', ',') : s;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** "12.03.2025, 14:05" (ru) / "12 Mar 2025, 14:05" (en). timeZone is for tests; the app uses the OS zone. */
export function formatDateTime(iso: string, lang: Lang = 'ru', timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  const key = `${lang}|${timeZone ?? ''}`;
  let f = dateTimeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALE[lang], {
      ...(lang === 'ru'
        ? { day: '2-digit', month: '2-digit', year: 'numeric' }
        : { day: 'numeric', month: 'short', year: 'numeric' }),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    dateTimeFormats.set(key, f);
  }
  return f.format(d);
}

/** Kopecks as the text of the declared-value field (no grouping, no sign): 150050 → "1500,50", 0 → "0". */
export function formatRoublesInput(kopecks: number, lang: Lang = 'ru'): string {
  const roubles = Math.floor(kopecks / 100);
  const cents = kopecks % 100;
  if (cents === 0) return String(roubles);
  return `${roubles}${lang === 'ru' ? ',' : '.'}${String(cents).padStart(2, '0')}`;
}
