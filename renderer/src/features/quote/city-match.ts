// Is the city the clerk typed one the core knows, and if not, which known cities are closest? Pure (the
// caller asks cities:search and passes the answers in): unit-tested in Node.
//
// The core recognises names, short forms and Latin spellings («спб», «Питер», «Moscow»: a suggestion with
// match 'exact' or 'alias'). A near miss («Масква», «Казнь», «Moscov») it does not know at all; the closest
// cities are found here: the core is asked for cities starting with short prefixes of the text (and of its
// rough Cyrillic reading), and the answers are ranked by edit distance.
import { normaliseCityName } from '../../../../core/contract/city-name';
import type { CitySuggestion } from '../../../../core/desk/contract';

/** The core's own comparison form (case, ё/е, hyphens and spaces, a leading «г.»), imported, never copied. */
export const normaliseCity = normaliseCityName;

/** The name part of "Киров, Калужская обл". */
function namePart(text: string): string {
  const comma = text.indexOf(',');
  return normaliseCity(comma >= 0 ? text.slice(0, comma) : text);
}

/**
 * The suggestion the text names: same name (case, ё and hyphens aside), or one the core says the text is
 * an alias of. Null when the text is only a prefix or nothing the core knows.
 */
export function recognisedCity(text: string, found: readonly CitySuggestion[]): CitySuggestion | null {
  const wanted = namePart(text);
  if (wanted === '') return null;
  return (
    found.find((s) => normaliseCity(s.name) === wanted) ??
    found.find((s) => s.match === 'exact' || s.match === 'alias') ??
    null
  );
}

/** True when the core resolved the text as an alias of another name («спб» → Санкт-Петербург). */
export function isAlias(text: string, s: CitySuggestion): boolean {
  return normaliseCity(s.name) !== namePart(text);
}

const LATIN = /[a-z]/;

const TRANSLIT: readonly [string, string][] = [
  ['shch', 'щ'],
  ['sch', 'щ'],
  ['yo', 'ё'],
  ['yu', 'ю'],
  ['ya', 'я'],
  ['ye', 'е'],
  ['zh', 'ж'],
  ['kh', 'х'],
  ['ts', 'ц'],
  ['ch', 'ч'],
  ['sh', 'ш'],
  ['a', 'а'],
  ['b', 'б'],
  ['c', 'к'],
  ['d', 'д'],
  ['e', 'е'],
  ['f', 'ф'],
  ['g', 'г'],
  ['h', 'х'],
  ['i', 'и'],
  ['j', 'й'],
  ['k', 'к'],
  ['l', 'л'],
  ['m', 'м'],
  ['n', 'н'],
  ['o', 'о'],
  ['p', 'п'],
  ['q', 'к'],
  ['r', 'р'],
  ['s', 'с'],
  ['t', 'т'],
  ['u', 'у'],
  ['v', 'в'],
  ['w', 'в'],
  ['x', 'кс'],
  ['y', 'ы'],
  ['z', 'з'],
];

/** A rough Cyrillic reading of Latin text ("kazan" → "казан"): good enough to find candidates, no more. */
export function latinToCyrillic(text: string): string {
  let out = '';
  let i = 0;
  const s = text.toLowerCase();
  while (i < s.length) {
    const pair = TRANSLIT.find(([lat]) => s.startsWith(lat, i));
    if (pair) {
      out += pair[1];
      i += pair[0].length;
    } else {
      out += s[i];
      i += 1;
    }
  }
  return out;
}

/** The spellings worth comparing against city names: the text, and its Cyrillic reading if it is Latin. */
export function spellings(text: string): string[] {
  const n = namePart(text);
  if (n === '') return [];
  return LATIN.test(n) ? [n, normaliseCity(latinToCyrillic(n))] : [n];
}

/** Prefixes to ask the core for candidates: the first one, two and three letters, and all but the last. */
export function candidatePrefixes(text: string): string[] {
  const out = new Set<string>();
  for (const s of spellings(text)) {
    for (const n of [1, 2, 3, s.length - 1]) if (n >= 1 && n <= s.length) out.add(s.slice(0, n));
  }
  return [...out];
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions: "Моксва" is one step). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known cities closest to the text, best first: within a third of the text's length in edits (at least
 * two), or starting with the text (a name left half-typed counts as one edit away), ties kept in the core's
 * order (recent places, then population). Each city once.
 */
export function rankClosest(
  text: string,
  candidates: readonly CitySuggestion[],
  limit = 3,
): CitySuggestion[] {
  const forms = spellings(text);
  if (forms.length === 0) return [];
  const seen = new Set<string>();
  const scored: { s: CitySuggestion; d: number; i: number }[] = [];
  candidates.forEach((s, i) => {
    const key = `${normaliseCity(s.name)}|${s.region}`;
    if (seen.has(key)) return;
    seen.add(key);
    const name = normaliseCity(s.name);
    const d = Math.min(...forms.map((f) => (name.startsWith(f) ? 1 : editDistance(f, name))));
    const allowed = Math.max(2, Math.ceil(Math.max(...forms.map((f) => f.length)) / 3));
    if (d <= allowed) scored.push({ s, d, i });
  });
  return scored
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .slice(0, limit)
    .map((x) => x.s);
}
