// The carrier picker's rules, pure (unit-tested in Node). Nothing ticked or everything ticked both mean
// "all" (null), so a carrier added later is included by default.
/** What the rules need of a carrier (QuoteCarrier has more). */
interface Pickable {
  code: string;
  name: string;
}

/** The codes the picker shows ticked. */
export function tickedCodes(value: readonly string[] | null, carriers: readonly Pickable[]): Set<string> {
  return new Set(value === null || value.length === 0 ? carriers.map((c) => c.code) : value);
}

/** One box ticked or unticked: the list in the carriers' order, or null for all (or none). */
export function toggleCarrier(
  value: readonly string[] | null,
  carriers: readonly Pickable[],
  code: string,
  on: boolean,
): string[] | null {
  const next = tickedCodes(value, carriers);
  if (on) next.add(code);
  else next.delete(code);
  const list = carriers.map((c) => c.code).filter((c) => next.has(c));
  return list.length === 0 || list.length === carriers.length ? null : list;
}

/** «только этот»: this carrier alone (one action instead of unticking all the others). */
export function onlyCarrier(carriers: readonly Pickable[], code: string): string[] | null {
  return carriers.length <= 1 ? null : [code];
}

/**
 * What the closed picker says: «все», one carrier's name, or «3 из 8». Never the list of names: a label
 * that grows with every tick would push the fields beside it (#17 item 6); the names go in the title.
 */
export function pickerSummary(
  value: readonly string[] | null,
  carriers: readonly Pickable[],
  words: { all: string; count: (n: number, total: number) => string },
): { text: string; title: string } {
  if (value === null || value.length === 0) return { text: words.all, title: words.all };
  const ticked = tickedCodes(value, carriers);
  const names = carriers.filter((c) => ticked.has(c.code)).map((c) => c.name);
  // Codes the list does not know (yet): shown as they are, so a choice never silently reads «все».
  const shown = names.length > 0 ? names : [...value];
  const title = shown.join(', ');
  if (shown.length === 1) return { text: shown[0]!, title };
  return { text: words.count(shown.length, Math.max(carriers.length, shown.length)), title };
}
