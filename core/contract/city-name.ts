// How two spellings of one city name are compared: shared by the core's city table and resolver and by the
// desk's city field, which must agree on what "the same name" is (#17: the renderer kept a copy of this rule).
// No imports, so the sandboxed renderer may import it like the rest of core/contract.

/**
 * The comparison form of a city name: case-insensitive, ё = е, hyphens and runs of spaces as one space,
 * without a leading "г", "г." or "город" (people paste addresses: "г. Казань").
 */
export function normaliseCityName(input: string): string {
  return input
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[\s\u00a0\-‐–—]+/g, ' ')
    .trim()
    .replace(/^(?:г\.\s*|г\s+|город\s+)/, '')
    .trim();
}
