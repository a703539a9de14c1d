// Boxberry reports every failure inside HTTP 200, as text without codes (protocols.md §3.6). This reads the
// four error forms and sorts the text into what it means for a quote. The phrases are Boxberry's own wording
// as SDK fixtures and the official plugin show it; a text matching none of them is a carrier_error that the
// adapter logs, because that is how a new wording becomes known.
import type { CarrierFailure } from '../types';
import { BoxberryError } from './schema';

/** The error text when `json` is one of Boxberry's error forms, else undefined (not an error answer). */
export function boxberryErrorText(json: unknown): string | undefined {
  const parsed = BoxberryError.safeParse(json);
  if (!parsed.success) return undefined;
  const first = Array.isArray(parsed.data) ? parsed.data[0]! : parsed.data;
  const text =
    'err' in first && typeof first.err === 'string' ? first.err : (first.message ?? 'unspecified error');
  return text.trim() || 'unspecified error';
}

export type ErrorMeaning = { failure: CarrierFailure; known: boolean };

const CITY_NOT_FOUND = /не\s+найден[а-яё]*\s+город|город[а-яё]*\s+\S*\s*не\s+найден/i;
const NO_SERVICE = /не\s+осуществляется|не\s+доставля|доставка\s+невозможна|недоступн/i;
const BAD_TOKEN = /token|токен|ключ/i;
/** Boxberry's own trouble ("Внутренняя ошибка…", "Сервис временно недоступен"): a carrier_error we know. */
const CARRIER_TROUBLE = /внутренн[а-яё]*\s+ошибк|временно\s+недоступ|ошибка\s+сервиса/i;
/** Validation texts: our request was wrong (a bug here, not Boxberry's fault), still a carrier_error. */
const VALIDATION = /должн[а-яё]*\s+быть|не\s+указан|не\s+передан|неверн|некорректн/i;

/** What a Boxberry error text means for the quote. */
export function classifyBoxberryError(text: string): ErrorMeaning {
  if (CITY_NOT_FOUND.test(text)) return { failure: { kind: 'city_not_found', detail: text }, known: true };
  if (CARRIER_TROUBLE.test(text))
    return { failure: { kind: 'carrier_error', detail: `Boxberry error: ${text}` }, known: true };
  if (NO_SERVICE.test(text)) return { failure: { kind: 'no_service', detail: text }, known: true };
  if (BAD_TOKEN.test(text)) {
    return {
      failure: {
        kind: 'carrier_error',
        detail: `Boxberry rejected the token (${text}); check carriers.boxberry.token`,
      },
      known: true,
    };
  }
  const known = VALIDATION.test(text);
  return { failure: { kind: 'carrier_error', detail: `Boxberry error: ${text}` }, known };
}
