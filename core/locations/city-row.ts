/** One city of the built-in table (cities-data.ts), kept as a tuple so the generated module stays small. */
export type CityRow = readonly [
  name: string,
  region: string,
  postalCode: string | null,
  population: number,
  lat: number,
  lon: number,
  /** 13-digit KLADR code of the city (hflabs/city `kladr_id`). */
  kladrId: string,
  /** FIAS GUID of the city (hflabs/city `fias_id`). */
  fiasId: string,
];
