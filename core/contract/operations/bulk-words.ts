// The words of a bulk file's fields and problems, in both UI languages, declared once: the Bulk screen shows
// them (renderer/src/i18n/bulk.ts) and the exported file writes them (core/bulk/export.ts), so a Russian
// clerk's export says in Russian why a row was not quoted, in the same words the screen did.
import type { BulkField, BulkProblem, BulkProblemKind } from './bulk';

export type BulkLanguage = 'ru' | 'en';

export const BULK_FIELD_NAMES: Record<BulkLanguage, Record<BulkField, string>> = {
  ru: {
    reference: 'Номер заказа',
    from_city: 'Откуда: город',
    from_postal_code: 'Откуда: индекс',
    to_city: 'Куда: город',
    to_postal_code: 'Куда: индекс',
    weight_kg: 'Вес, кг',
    weight_grams: 'Вес, г',
    length_cm: 'Длина, см',
    width_cm: 'Ширина, см',
    height_cm: 'Высота, см',
    places: 'Мест',
    declared_value_rub: 'Объявленная ценность, ₽',
    cod_rub: 'Наложенный платёж, ₽',
    ship_date: 'Дата отгрузки',
    carriers: 'Перевозчики',
  },
  en: {
    reference: 'Order number',
    from_city: 'From: city',
    from_postal_code: 'From: postal code',
    to_city: 'To: city',
    to_postal_code: 'To: postal code',
    weight_kg: 'Weight, kg',
    weight_grams: 'Weight, g',
    length_cm: 'Length, cm',
    width_cm: 'Width, cm',
    height_cm: 'Height, cm',
    places: 'Places',
    declared_value_rub: 'Declared value, RUB',
    cod_rub: 'Cash on delivery, RUB',
    ship_date: 'Ship date',
    carriers: 'Carriers',
  },
};

/** `{field}`: the field's name above; `{value}`: the cell as found. */
export const BULK_PROBLEM_TEXTS: Record<BulkLanguage, Record<BulkProblemKind, string>> = {
  ru: {
    empty_file: 'файл пуст',
    old_excel: 'это файл Excel 97–2003 (.xls) или с паролем: сохраните как .xlsx или «CSV UTF-8»',
    bad_xlsx: 'файл не читается как книга Excel: сохраните как «CSV UTF-8»',
    not_utf8: 'текст не в UTF-8: сохраните как «CSV UTF-8»',
    unterminated_quote: 'кавычка не закрыта; дальше файл не прочитан',
    no_rows: 'в файле есть заголовок, но нет строк',
    too_many_rows: 'больше 10 000 строк',
    unmapped: 'не выбран столбец для поля «{field}»',
    no_place: '«{field}»: нет ни города, ни индекса',
    bad_postal_code: '«{field}»: «{value}» — не индекс из 6 цифр',
    bad_weight: '«{field}»: «{value}» — не вес от 1 г до 1000 кг',
    no_weight: 'нет веса',
    bad_size: '«{field}»: «{value}» — не размер в сантиметрах',
    bad_places: '«{field}»: «{value}» — не число мест от 1 до 50',
    bad_money: '«{field}»: «{value}» — не сумма в рублях',
    bad_date: '«{field}»: «{value}» — не дата (ГГГГ-ММ-ДД или ДД.ММ.ГГГГ)',
    bad_carriers: '«{field}»: «{value}» — не список кодов перевозчиков',
  },
  en: {
    empty_file: 'the file is empty',
    old_excel: 'an Excel 97–2003 (.xls) or password-protected file: save it as .xlsx or "CSV UTF-8"',
    bad_xlsx: 'cannot be read as an Excel workbook: save it as "CSV UTF-8"',
    not_utf8: 'the text is not UTF-8: save it as "CSV UTF-8"',
    unterminated_quote: 'a quote is never closed; nothing after it was read',
    no_rows: 'the file has a header but no rows',
    too_many_rows: 'more than 10,000 rows',
    unmapped: 'no column chosen for "{field}"',
    no_place: '"{field}": neither a city nor a postal code',
    bad_postal_code: '"{field}": "{value}" is not a 6-digit postal code',
    bad_weight: '"{field}": "{value}" is not a weight from 1 g to 1000 kg',
    no_weight: 'no weight',
    bad_size: '"{field}": "{value}" is not a size in centimetres',
    bad_places: '"{field}": "{value}" is not a number of places from 1 to 50',
    bad_money: '"{field}": "{value}" is not an amount in roubles',
    bad_date: '"{field}": "{value}" is not a date (YYYY-MM-DD or DD.MM.YYYY)',
    bad_carriers: '"{field}": "{value}" is not a list of carrier codes',
  },
};

/** A problem in the UI's words, without its row number. */
export function bulkProblemText(p: BulkProblem, lang: BulkLanguage): string {
  const field = p.field ? BULK_FIELD_NAMES[lang][p.field] : '';
  // A function replacement: a value holding `$&` or `$1` is written as it is.
  return BULK_PROBLEM_TEXTS[lang][p.kind]
    .replace('{field}', () => field)
    .replace('{value}', () => p.value ?? '');
}
