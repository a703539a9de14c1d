// What a person typed in a city field, turned into ranked suggestions: the one place these rules live. The
// desk's cities:search answers with them (core/operations/quotes.ts adds the desk's recent places), and
// /v1's place resolution reads the same text the same way through findCity (cities.ts).
//
// The rules, in order (docs/carriers.md "What people type"; test/unit/core/locations/city-search.test.ts):
// 1. Six digits are a postal index: the town of that index (citiesOfPostalIndex), never a name.
// 2. The text is read as typed, and, when it has Latin letters only, as the Russian it gives in the Latin
//    layout («Rfpfym» → казань). Latin text is also read as a transliteration, for prefixes («Tver»).
// 3. Names come before prefixes: the text's own town (its name, a short form or nickname, its layout
//    reading) ranks above every town whose name only starts with the text («Зеленоград» above
//    «Зеленоградск»). Within each group the bigger town comes first («Киров» of Кировская область before the
//    one of Калужская). "Name, Region" keeps the towns of that region.
// 4. A pick that may not be what the clerk meant says so (`confirm`): `ambiguous` when several towns answer
//    to the text (namesakes, a short form that is also a town's name, an index shared by several towns) and
//    neither a region nor a postal hint settles it; `far` for a town that only starts with the text when the
//    text itself names another town («Зеленоградск» for «Зеленоград»).
// 5. When nothing starts with the text, the closest names by edit distance («Масква» → Москва). A Latin
//    text one letter off a known Latin spelling is a guess at that city before any prefix («Moscov» →
//    Москва, then Московский).
import { aliasEntries, aliasFor, cyrillicReading } from './aliases';
import {
  citiesOfPostalIndex,
  cityIndex,
  normaliseCityName,
  pickByPostalHint,
  postalIndexIn,
  regionMatches,
  splitQuery,
  type City,
  type Entry,
} from './cities';
import type { CityMatch } from '../contract/operations/quotes';
import { russianLayoutReading } from './layout';

/**
 * How the text names a town (the contract's CitySuggestion.match): its `exact` name; an `alias` (a short
 * form, nickname, Latin spelling, or the name typed in the Latin layout); its `postal` index; only the start
 * of its name (`prefix`); or nothing, but it is among the `closest` names.
 */
export type { CityMatch };
export type ConfirmReason = 'ambiguous' | 'far';

export interface FoundCity {
  city: City;
  match: CityMatch;
  /** Why taking this town for the text must be confirmed first; null when it is what the text says. */
  confirm: ConfirmReason | null;
}

/** The ways a text is read: as typed, and in the Russian layout when it was typed in the Latin one. */
function readings(text: string): { text: string; layout: boolean }[] {
  const layout = russianLayoutReading(text);
  return layout === undefined
    ? [{ text, layout: false }]
    : [
        { text, layout: false },
        { text: layout, layout: true },
      ];
}

/**
 * How `query` names the place called `name` (a recent place of the desk, not necessarily in the table), by the
 * rules above; null when it does not.
 */
export function matchName(query: string, name: string): CityMatch | null {
  const key = normaliseCityName(name);
  let best: CityMatch | null = null;
  for (const r of readings(query)) {
    const typed = splitQuery(r.text).name;
    if (typed === '') continue;
    const alias = aliasFor(typed);
    if (key === typed) return r.layout ? 'alias' : 'exact';
    if (alias && normaliseCityName(alias) === key) return 'alias';
    const latin = r.layout ? undefined : cyrillicReading(typed);
    if (key.startsWith(typed) || (latin !== undefined && key.startsWith(latin))) best = 'prefix';
  }
  return best;
}

/**
 * Suggestions for what was typed, best first (the rules above). `postalHint`, an index typed beside the city,
 * picks among namesakes as it does for findCity, and then no confirmation is asked.
 */
export function findCities(query: string, limit = 10, postalHint?: string | null): FoundCity[] {
  if (limit <= 0 || query.trim() === '') return [];
  const index = postalIndexIn(query);
  if (index) return byPostalIndex(index, limit);

  const { entries, byName } = cityIndex();
  const named: { entry: Entry; match: CityMatch }[] = [];
  const prefixed: Entry[] = [];
  const seen = new Set<Entry>();
  const name = (e: Entry, match: CityMatch): void => {
    if (seen.has(e)) return;
    seen.add(e);
    named.push({ entry: e, match });
  };
  for (const r of readings(query)) {
    const { name: typed, region } = splitQuery(r.text);
    if (typed === '') continue;
    // A region no town of the table is in ("Москва, Россия") is ignored, as findCity ignores it.
    const regionKnown = region !== '' && entries.some((e) => regionMatches(e, region));
    const keep = (e: Entry): boolean => !regionKnown || regionMatches(e, region);
    const alias = aliasFor(typed);
    for (const e of alias ? (byName.get(normaliseCityName(alias)) ?? []) : []) if (keep(e)) name(e, 'alias');
    for (const e of byName.get(typed) ?? []) if (keep(e)) name(e, r.layout ? 'alias' : 'exact');
    const latin = r.layout ? undefined : cyrillicReading(typed);
    for (const e of entries) {
      if (seen.has(e) || !keep(e)) continue;
      if (e.key.startsWith(typed) || (latin !== undefined && e.key.startsWith(latin))) {
        prefixed.push(e);
        seen.add(e);
      }
    }
  }
  // Bigger towns first within each group (a layout reading's towns were added after the typed text's).
  named.sort((a, b) => b.entry.city.population - a.entry.city.population);
  prefixed.sort((a, b) => b.city.population - a.city.population);

  // A postal hint that picks one namesake settles the question; the others stay questionable.
  const hinted = pickByPostalHint(
    named.map((n) => n.entry),
    postalHint,
  );
  if (hinted)
    named.unshift(
      ...named.splice(
        named.findIndex((n) => n.entry === hinted),
        1,
      ),
    );
  const settled = named.length === 1 || hinted !== undefined;
  const found: FoundCity[] = named.map((n, i) => ({
    city: n.entry.city,
    match: n.match,
    confirm: settled && i === 0 ? null : 'ambiguous',
  }));
  // A Latin spelling one letter off a known one («Moscov») is a guess at that city, before prefixes its
  // transliteration happens to start («Московский»): Latin names have no single spelling to get right.
  const near = named.length === 0 ? nearLatinSpellings(query) : [];
  for (const e of near) found.push({ city: e.city, match: 'closest', confirm: null });
  for (const e of prefixed)
    if (!near.includes(e))
      found.push({ city: e.city, match: 'prefix', confirm: named.length > 0 ? 'far' : null });
  return found.length > 0 ? found.slice(0, limit) : closest(query, Math.min(limit, 3));
}

/** The cities of the Latin spellings (aliases.ts) one edit away from a Latin text of four letters or more. */
function nearLatinSpellings(query: string): Entry[] {
  const typed = splitQuery(query).name;
  if (typed.length < 4 || !/^[a-z .'-]+$/.test(typed)) return [];
  const { byName } = cityIndex();
  const out: Entry[] = [];
  for (const [key, city] of aliasEntries()) {
    if (!/[a-z]/.test(key) || editDistance(typed, key) !== 1) continue;
    for (const e of byName.get(normaliseCityName(city)) ?? []) if (!out.includes(e)) out.push(e);
  }
  return out;
}

function byPostalIndex(index: string, limit: number): FoundCity[] {
  const area = citiesOfPostalIndex(index);
  if (area.confident) return [{ city: area.cities[0]!, match: 'postal', confirm: null }];
  return area.cities.slice(0, limit).map((city) => ({ city, match: 'postal', confirm: 'ambiguous' }));
}

/**
 * The known names nearest to an unknown text, nearest first, at most `limit`: within a third of the text's
 * length in edits (at least two), a name that starts with the text counting as one edit; ties by population.
 */
function closest(query: string, limit: number): FoundCity[] {
  const forms = readings(query).flatMap((r) => {
    const typed = splitQuery(r.text).name;
    const latin = r.layout ? undefined : cyrillicReading(typed);
    return latin === undefined ? [typed] : [typed, latin];
  });
  const wanted = forms.filter((f) => f !== '');
  if (wanted.length === 0) return [];
  const allowed = Math.max(2, Math.ceil(Math.max(...wanted.map((f) => f.length)) / 3));
  const scored: { entry: Entry; d: number }[] = [];
  for (const entry of cityIndex().entries) {
    let d = Number.POSITIVE_INFINITY;
    for (const f of wanted) {
      // A cheap bound first: names much longer or shorter than the text cannot be near it.
      if (Math.abs(entry.key.length - f.length) > allowed && !entry.key.startsWith(f)) continue;
      d = Math.min(d, entry.key.startsWith(f) ? 1 : editDistance(f, entry.key));
    }
    if (d <= allowed) scored.push({ entry, d });
  }
  return scored
    .sort((a, b) => a.d - b.d || b.entry.city.population - a.entry.city.population)
    .slice(0, limit)
    .map(({ entry }) => ({ city: entry.city, match: 'closest', confirm: null }));
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions: «Моксва» is one step). */
export function editDistance(a: string, b: string): number {
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2]! + 1);
      row.push(v);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[b.length]!;
}

/** The towns only (autocomplete callers that need no match kinds). */
export function searchCities(query: string, limit = 10): City[] {
  return findCities(query, limit).map((f) => f.city);
}
