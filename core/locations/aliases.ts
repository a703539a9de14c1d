// What people type for a city instead of its name: short forms ("спб", "екб", "мск"), nicknames ("Питер"),
// and Latin spellings ("Moscow", "Sankt-Peterburg", "St.Petersburg"). Keys are in normaliseCityName form,
// without dots (aliasFor reads "st. petersburg", "st.petersburg" and "н.новгород" as "st petersburg" and
// "н новгород"). Latin spellings cover the common transliterations (BGN "Yekaterinburg", passport
// "Ekaterinburg", "Nizhniy"/"Nizhny"), since a Latin name has no single correct spelling.

const ALIASES: Readonly<Record<string, string>> = {
  мск: 'Москва',
  msk: 'Москва',
  moscow: 'Москва',
  moskva: 'Москва',
  спб: 'Санкт-Петербург',
  питер: 'Санкт-Петербург',
  петербург: 'Санкт-Петербург',
  'с петербург': 'Санкт-Петербург',
  'ст петербург': 'Санкт-Петербург',
  'saint petersburg': 'Санкт-Петербург',
  'st petersburg': 'Санкт-Петербург',
  'sankt peterburg': 'Санкт-Петербург',
  'sankt petersburg': 'Санкт-Петербург',
  petersburg: 'Санкт-Петербург',
  spb: 'Санкт-Петербург',
  piter: 'Санкт-Петербург',
  екб: 'Екатеринбург',
  ебург: 'Екатеринбург',
  екат: 'Екатеринбург',
  ekb: 'Екатеринбург',
  yekaterinburg: 'Екатеринбург',
  ekaterinburg: 'Екатеринбург',
  нск: 'Новосибирск',
  новосиб: 'Новосибирск',
  nsk: 'Новосибирск',
  novosibirsk: 'Новосибирск',
  нн: 'Нижний Новгород',
  нижний: 'Нижний Новгород',
  'н новгород': 'Нижний Новгород',
  'nizhny novgorod': 'Нижний Новгород',
  'nizhniy novgorod': 'Нижний Новгород',
  'nizhnii novgorod': 'Нижний Новгород',
  'nizhni novgorod': 'Нижний Новгород',
  'n novgorod': 'Нижний Новгород',
  kazan: 'Казань',
  samara: 'Самара',
  omsk: 'Омск',
  chelyabinsk: 'Челябинск',
  челяба: 'Челябинск',
  'rostov on don': 'Ростов-на-Дону',
  'rostov na donu': 'Ростов-на-Дону',
  ростов: 'Ростов-на-Дону',
  ufa: 'Уфа',
  krasnoyarsk: 'Красноярск',
  красик: 'Красноярск',
  perm: 'Пермь',
  voronezh: 'Воронеж',
  volgograd: 'Волгоград',
  krasnodar: 'Краснодар',
  kaliningrad: 'Калининград',
  калиник: 'Калининград',
  vladivostok: 'Владивосток',
  владик: 'Владивосток',
  khabarovsk: 'Хабаровск',
  irkutsk: 'Иркутск',
  tyumen: 'Тюмень',
  sochi: 'Сочи',
};

/** Every short form, nickname and Latin spelling with its city (city-search.ts looks for near misses). */
export function aliasEntries(): ReadonlyArray<readonly [key: string, city: string]> {
  return Object.entries(ALIASES);
}

/** The city a short form, nickname or Latin spelling stands for, or undefined. `key` is normalised. */
export function aliasFor(key: string): string | undefined {
  if (Object.hasOwn(ALIASES, key)) return ALIASES[key];
  // Abbreviations come with and without dots and spaces: "St. Petersburg", "St.Petersburg", "Н.Новгород".
  const undotted = key.replace(/\./g, ' ').replace(/\s+/g, ' ').trim();
  return undotted !== key && Object.hasOwn(ALIASES, undotted) ? ALIASES[undotted] : undefined;
}

// A plain Latin → Cyrillic reading, enough to find "Tver" or "Belgorod" by prefix in the Russian table.
const DIGRAPHS: ReadonlyArray<[string, string]> = [
  ['shch', 'щ'],
  ['sch', 'щ'],
  ['zh', 'ж'],
  ['kh', 'х'],
  ['ts', 'ц'],
  ['ch', 'ч'],
  ['sh', 'ш'],
  ['yu', 'ю'],
  ['ya', 'я'],
  ['yo', 'ё'],
  ['ye', 'е'],
];
const LETTERS: Readonly<Record<string, string>> = {
  a: 'а',
  b: 'б',
  v: 'в',
  g: 'г',
  d: 'д',
  e: 'е',
  z: 'з',
  i: 'и',
  y: 'ы',
  k: 'к',
  l: 'л',
  m: 'м',
  n: 'н',
  o: 'о',
  p: 'п',
  r: 'р',
  s: 'с',
  t: 'т',
  u: 'у',
  f: 'ф',
  h: 'х',
  c: 'к',
  j: 'й',
  w: 'в',
  x: 'кс',
  q: 'к',
};

/** The Cyrillic reading of a Latin text, or undefined when it has no Latin letters. `text` is normalised. */
export function cyrillicReading(text: string): string | undefined {
  if (!/[a-z]/.test(text)) return undefined;
  let out = '';
  for (let i = 0; i < text.length;) {
    const pair = DIGRAPHS.find(([latin]) => text.startsWith(latin, i));
    if (pair) {
      out += pair[1];
      i += pair[0].length;
      continue;
    }
    const ch = text[i]!;
    out += LETTERS[ch] ?? ch;
    i += 1;
  }
  return out;
}
