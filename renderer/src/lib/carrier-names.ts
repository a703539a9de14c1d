// The one rule for how a carrier is named on screen (issue #17): every visible text is in the UI's language,
// carrier names included. The core's carrier list gives each built-in carrier its Russian name and its
// English one (from the carrier's descriptor); a rate card has only the name the admin gave it, in both
// languages. Stored rows (a quote, a history entry) keep the Russian `carrier_name` /v1 gave: it is shown only
// when the code is no longer known (a rate card since removed). Pure: unit-tested in Node.
import type { Lang } from './format';

/** What naming needs of a carrier (the carriers list's entries have more). */
export interface NamedCarrier {
  code: string;
  /** Russian name (the one /v1 gives as `carrier_name`). */
  name: string;
  /** English name; a rate card's is its one name. */
  name_en: string;
}

/** A carrier's name by its code; `stored` is the row's own `carrier_name`, used when the code is unknown. */
export type CarrierNameOf = (code: string, stored?: string) => string;

/** The name of a carrier in hand, in the UI language. */
export function displayName(c: Pick<NamedCarrier, 'name' | 'name_en'>, lang: Lang): string {
  return lang === 'en' && c.name_en.trim() !== '' ? c.name_en : c.name;
}

/** Names by code in one language: the list's name, else the row's stored name, else the code itself. */
export function carrierNamer(carriers: readonly NamedCarrier[], lang: Lang): CarrierNameOf {
  const byCode = new Map(carriers.map((c) => [c.code, displayName(c, lang)]));
  // `typeof`: a namer handed to Array.map gets the index as its second argument.
  return (code, stored) => byCode.get(code) ?? (typeof stored === 'string' && stored !== '' ? stored : code);
}

/** The same carriers with `name` in the UI language (for lists that show `name`: the carrier picker). */
export function namedIn<C extends NamedCarrier>(carriers: readonly C[], lang: Lang): C[] {
  return carriers.map((c) => ({ ...c, name: displayName(c, lang) }));
}
