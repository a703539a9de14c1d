// A city typed with the keyboard left in the Latin layout: «Rfpfym» is what «Казань» gives on a Russian
// keyboard switched to English, «Vjcrdf» is «Москва». Clerks switch layouts all day and often notice only
// after the word is typed; the city field reads such text as the Russian it was meant to be.
//
// The map is the standard Russian ЙЦУКЕН layout over US QWERTY: every key, shifted or not, gives the letter
// printed beside it. Keys outside the map (digits, space, hyphen) type the same character in both layouts.

const LATIN = "qwertyuiop[]asdfghjkl;'zxcvbnm,.`" + '{}:"<>~/?';
const RUSSIAN = 'йцукенгшщзхъфывапролджэячсмитьбюё' + 'хъжэбюё.,';

const KEY_TO_RUSSIAN: ReadonlyMap<string, string> = new Map(
  [...LATIN].map((ch, i) => [ch, RUSSIAN[i]!] as const),
);

/**
 * The Russian the text would be on a Russian keyboard, or undefined when the text is not a candidate: it must
 * hold at least one Latin letter and no Cyrillic one (mixed text was typed on purpose). Lower case: callers
 * compare normalised names.
 */
export function russianLayoutReading(text: string): string | undefined {
  const lower = text.toLowerCase();
  if (!/[a-z]/.test(lower) || /[а-яё]/.test(lower)) return undefined;
  let out = '';
  for (const ch of lower) out += KEY_TO_RUSSIAN.get(ch) ?? ch;
  return out;
}
