// Bounds of the /v1 Shipment (core/contract/v1.ts), repeated here as plain numbers: importing that module
// at run time would pull zod into the renderer bundle for four constants. test/unit/renderer/limits.test.ts
// checks that the two stay equal.
export const LIMITS = {
  maxWeightGrams: 1_000_000,
  maxDimensionCm: 1000,
  maxDeclaredValueKopecks: 100_000_000_000,
  maxCityLength: 120,
} as const;
