// The shape of a message catalogue. Every feature has one file (common.ts, quote.ts, carriers.ts, …) that
// calls defineMessages with a Russian and an English table; the English table must have exactly the
// Russian keys (the compiler checks it, and test/unit/renderer/i18n.test.ts checks every registered
// catalogue at run time).
import type { Lang } from '../lib/format';

export type { Lang };
export type Params = Record<string, string | number>;
/** A message: text with {name} placeholders, or a function of the parameters (plurals, conditionals). */
export type Message = string | ((p: Params) => string);

export interface Catalogue<K extends string = string> {
  ru: Record<K, Message>;
  en: Record<K, Message>;
}

export function defineMessages<const R extends Record<string, Message>>(catalogue: {
  ru: R;
  en: { [K in keyof R]: Message };
}): Catalogue<keyof R & string> {
  return catalogue as Catalogue<keyof R & string>;
}

/** Fills {name} placeholders; a missing parameter stays visible as {name} rather than vanishing. */
export function render(message: Message, params: Params = {}): string {
  if (typeof message === 'function') return message(params);
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

const pluralRules: Partial<Record<Lang, Intl.PluralRules>> = {};

/** Russian needs three forms: 1 запрос, 2 запроса, 5 запросов; English two. */
export function plural(
  lang: Lang,
  n: number,
  forms: { one: string; few?: string; many?: string; other: string },
): string {
  const rules = (pluralRules[lang] ??= new Intl.PluralRules(lang === 'ru' ? 'ru-RU' : 'en-GB'));
  const category = rules.select(n);
  if (category === 'one') return forms.one;
  if (category === 'few') return forms.few ?? forms.other;
  if (category === 'many') return forms.many ?? forms.other;
  return forms.other;
}
