// Towns inside Moscow and St Petersburg. hflabs/city (cities-data.ts) lists a federal city as one row, so the
// towns within its borders are missing: «Зеленоград» found only «Зеленоградск, Калининградская область», a
// town 1,200 km away (issue #17). People write these towns as towns on every address label, and carriers'
// directories know them as places of their own, so the city field must too.
//
// What is here: the towns with city status inside the two cities (Moscow: the 4 «города в составе Москвы»;
// St Petersburg: the 9 «города в составе Санкт-Петербурга» of the city law 411-68 on its territorial
// structure) and the three largest settlements people write as towns (Коммунарка in Moscow; Шушары and
// Парголово in St Petersburg). Moscow's districts inside the ring (Бутово, Солнцево, …) are not here: an
// address there is written «Москва».
//
// Source: Russian Wikipedia, each town's article (infobox: administrative okrug or district, postal codes,
// population, coordinates), read in 2025. `postalCode` is the town's main index: the first of the range the
// infobox lists, or for Зеленоград (infobox «124xxx») the index of the town centre (Центральная площадь, the
// okrug prefecture). Population is rounded and only orders namesakes and suggestions. Before a release, check
// the indexes against Почта России's office directory (https://www.pochta.ru/offices): a wrong main index
// would send the town's quotes to a neighbouring office's zone.
//
// A town of this list keeps its federal city's KLADR code and FIAS id (cities.ts): carriers that key on those
// price it as the city, which is how they treat it; carriers that key on the postal index get the town's own.

export type FederalCity = 'Москва' | 'Санкт-Петербург';

export interface TownWithin {
  name: string;
  /** The federal city the town is part of (its region in the city field). */
  within: FederalCity;
  /** The administrative okrug (Moscow) or district (St Petersburg). */
  district: string;
  postalCode: string;
  population: number;
  lat: number;
  lon: number;
}

export const TOWNS_WITHIN_CITIES: readonly TownWithin[] = [
  // Moscow: the four towns of the city, then the largest settlement of Новая Москва.
  {
    name: 'Зеленоград',
    within: 'Москва',
    district: 'Зеленоградский административный округ',
    postalCode: '124482',
    population: 254_000,
    lat: 55.9978,
    lon: 37.1903,
  },
  {
    name: 'Троицк',
    within: 'Москва',
    district: 'Троицкий административный округ',
    postalCode: '108840',
    population: 64_000,
    lat: 55.4792,
    lon: 37.2939,
  },
  {
    name: 'Московский',
    within: 'Москва',
    district: 'Новомосковский административный округ',
    postalCode: '108811',
    population: 59_000,
    lat: 55.6,
    lon: 37.35,
  },
  {
    name: 'Щербинка',
    within: 'Москва',
    district: 'Новомосковский административный округ',
    postalCode: '108851',
    population: 51_000,
    lat: 55.4997,
    lon: 37.5597,
  },
  {
    name: 'Коммунарка',
    within: 'Москва',
    district: 'Новомосковский административный округ',
    postalCode: '108801',
    population: 20_000,
    lat: 55.5695,
    lon: 37.4893,
  },
  // St Petersburg: the nine towns of the city, then two settlements.
  {
    name: 'Колпино',
    within: 'Санкт-Петербург',
    district: 'Колпинский район',
    postalCode: '196650',
    population: 152_000,
    lat: 59.75,
    lon: 30.6,
  },
  {
    name: 'Пушкин',
    within: 'Санкт-Петербург',
    district: 'Пушкинский район',
    postalCode: '196601',
    population: 110_000,
    lat: 59.7167,
    lon: 30.4167,
  },
  {
    name: 'Петергоф',
    within: 'Санкт-Петербург',
    district: 'Петродворцовый район',
    postalCode: '198510',
    population: 78_000,
    lat: 59.8833,
    lon: 29.9,
  },
  {
    name: 'Красное Село',
    within: 'Санкт-Петербург',
    district: 'Красносельский район',
    postalCode: '198320',
    population: 60_000,
    lat: 59.7397,
    lon: 30.0875,
  },
  {
    name: 'Сестрорецк',
    within: 'Санкт-Петербург',
    district: 'Курортный район',
    postalCode: '197701',
    population: 44_000,
    lat: 60.0931,
    lon: 29.9636,
  },
  {
    name: 'Кронштадт',
    within: 'Санкт-Петербург',
    district: 'Кронштадтский район',
    postalCode: '197760',
    population: 44_000,
    lat: 59.9953,
    lon: 29.7669,
  },
  {
    name: 'Ломоносов',
    within: 'Санкт-Петербург',
    district: 'Петродворцовый район',
    postalCode: '198412',
    population: 43_000,
    lat: 59.9167,
    lon: 29.7667,
  },
  {
    name: 'Павловск',
    within: 'Санкт-Петербург',
    district: 'Пушкинский район',
    postalCode: '196620',
    population: 17_000,
    lat: 59.6833,
    lon: 30.4333,
  },
  {
    name: 'Зеленогорск',
    within: 'Санкт-Петербург',
    district: 'Курортный район',
    postalCode: '197720',
    population: 15_000,
    lat: 60.2,
    lon: 29.7,
  },
  {
    name: 'Парголово',
    within: 'Санкт-Петербург',
    district: 'Выборгский район',
    postalCode: '194362',
    population: 100_000,
    lat: 60.0833,
    lon: 30.2667,
  },
  {
    name: 'Шушары',
    within: 'Санкт-Петербург',
    district: 'Пушкинский район',
    postalCode: '196626',
    population: 40_000,
    lat: 59.8167,
    lon: 30.3833,
  },
];
