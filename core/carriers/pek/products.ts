// PEK's products as the current calculator knows them (`types`, ids from GET /typesOfDelivery/all/;
// verified-2026.md §5: 3 = LTL Авто, 1 = Express Авиа, 12 = EasyWay Авто; 5 = Express Авто cannot be
// calculated by this method). Trap: in the 2023 enum (transportingTypes) 1 meant auto; it is avia now.
export const PEK_PRODUCTS: Readonly<Record<number, string>> = {
  3: 'LTL Авто',
  1: 'Express Авиа',
  12: 'EasyWay Авто',
};

/** LTL Авто: PEK's main consolidated-freight product, the one that needs no separate contract (PK-AG). */
export const DEFAULT_PEK_TYPES: readonly number[] = [3];

/** The setting carriers.pek.types ("3,1") → product ids, known ones only, in the order given, no repeats. */
export function parsePekTypes(text: string): number[] {
  const ids = text
    .split(',')
    .map((t) => Number(t.trim()))
    .filter((n) => Object.hasOwn(PEK_PRODUCTS, n));
  const unique = [...new Set(ids)];
  return unique.length > 0 ? unique : [...DEFAULT_PEK_TYPES];
}
