/** One city of the built-in table (cities-data.ts), kept as a tuple so the generated module stays small. */
export type CityRow = readonly [
  name: string,
  region: string,
  postalCode: string | null,
  population: number,
  lat: number,
  lon: number,
];
