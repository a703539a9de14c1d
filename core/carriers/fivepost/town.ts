// Which town a 5Post point is in. 5Post writes the town its own way: the only raw capture of its catalogue
// (lapaygroup/fivepost-sdk README, getPvzList) has `"city": "Зеленодольск г"`, `"cityType": "г"`,
// `"region": "Татарстан республика"`, while the 2025 integration guide's partly constructed point has
// `"city": "Магадан"`. Both carry `localityFiasCode`, the FIAS GUID of the locality. So a point is matched
// to the city table by that code first (exact, and right for namesakes), and by its name only when the code
// is not a table city (villages, settlements, a code of another FIAS level).
import { cityByFiasId, normaliseCityName, type City } from '../../locations/cities';

/** The key under which points of a table city are kept: its FIAS GUID, never a spelling. */
export function fiasKey(city: City): string {
  return `fias:${city.fiasId.toLowerCase()}`;
}

/**
 * Settlement type words as FIAS abbreviates them (and as people write them), in either place: «Зеленодольск г»,
 * «г. Зеленодольск», «пгт Шерегеш», «с Дивноморское», «п Солнечный». No name of the city table contains one
 * as a word of its own, so stripping one never turns a city into another.
 */
const TYPE_WORDS = new Set([
  'г',
  'город',
  'пгт',
  'рп',
  'кп',
  'дп',
  'п',
  'пос',
  'поселок',
  'с',
  'село',
  'д',
  'дер',
  'деревня',
  'ст',
  'станица',
  'х',
  'хутор',
  'аул',
  'сл',
  'слобода',
  'нп',
  'снт',
  'тер',
  'мкр',
]);

/** A town's name without its type word before or after it, in the city table's comparison form. */
export function townNameKey(name: string, cityType?: string | null): string {
  // «ст-ца» would read as two words once hyphens are spaces.
  const words = normaliseCityName(name.replace(/(^|\s)ст-ца(?=[\s.]|$)/giu, '$1станица').replace(/\./g, '. '))
    .split(' ')
    .map((w) => w.replace(/\.$/, ''))
    .filter((w) => w !== '');
  const type = cityType ? normaliseCityName(cityType).replace(/\.$/, '') : null;
  const isType = (w: string | undefined): boolean => w !== undefined && (TYPE_WORDS.has(w) || w === type);
  // A type word is dropped only where there is a name besides it ("Г" alone stays a name, however odd).
  if (words.length > 1 && isType(words[0])) words.shift();
  if (words.length > 1 && isType(words[words.length - 1])) words.pop();
  return words.join(' ');
}

export interface PointTown {
  /** fiasKey(city) when the point's FIAS code is a table city, else townNameKey of its name. */
  key: string;
  /** The table's region for a FIAS match (exact), else 5Post's own wording ("Татарстан республика"). */
  region: string;
}

/** Where a point of the catalogue is, from its `localityFiasCode` and `address`. */
export function townOfPoint(
  localityFiasCode: string | null | undefined,
  city: string,
  cityType: string | null | undefined,
  region: string | null | undefined,
): PointTown {
  const byFias = localityFiasCode ? cityByFiasId(localityFiasCode) : null;
  if (byFias) return { key: fiasKey(byFias), region: byFias.region };
  return { key: townNameKey(city, cityType).slice(0, 200), region: (region ?? '').slice(0, 200) };
}
