// The quote form's input help (issue #17, items 2, 6 and 10): the city field's questions before a doubtful
// pick goes out, and the parcel fields' warnings. A catalogue of its own, so the quote catalogue stays as it is.
import { defineMessages } from './define';

export const quoteInput = defineMessages({
  ru: {
    'ask.namesakes': 'Городов «{name}» несколько — какой нужен?',
    'ask.index': 'Индекс {index} есть у нескольких городов — какой нужен?',
    'ask.far': 'Вы ввели «{typed}», а это другой город — {name}, {region}. Верно?',
    'ask.keys': '↑↓ — выбрать, Enter — подтвердить, Esc — назад',
    'ask.typed': 'вы ввели',
    'notice.namesakes': '«{text}» — городов с таким названием несколько, уточните:',
    'notice.index': 'Индекс {text} есть у нескольких городов, уточните:',
    'err.cityUnconfirmed': 'Уточните, какой город: с таким названием их несколько.',
    'err.indexUnconfirmed': 'Уточните город: индекс есть у нескольких городов.',
    valueNone: 'не указана',
    'result.valueNone': 'ценность не указана',
    'light.text': '{grams} г? Проверьте — может быть, {grams} кг. Enter — рассчитать как есть.',
    'light.keep': 'Да, {grams} г',
    'light.kg': 'Нет, {grams} кг',
  },
  en: {
    'ask.namesakes': 'There is more than one “{name}” — which one?',
    'ask.index': 'Postcode {index} belongs to several towns — which one?',
    'ask.far': 'You typed “{typed}”, but this is another town — {name}, {region}. Is that right?',
    'ask.keys': '↑↓ — choose, Enter — confirm, Esc — back',
    'ask.typed': 'you typed',
    'notice.namesakes': '“{text}” — several towns have this name, say which:',
    'notice.index': 'Postcode {text} belongs to several towns, say which:',
    'err.cityUnconfirmed': 'Say which town: several have this name.',
    'err.indexUnconfirmed': 'Say which town: this postcode belongs to several.',
    valueNone: 'not stated',
    'result.valueNone': 'no declared value',
    'light.text': '{grams} g? Check it — maybe {grams} kg. Enter — quote as it is.',
    'light.keep': 'Yes, {grams} g',
    'light.kg': 'No, {grams} kg',
  },
});
