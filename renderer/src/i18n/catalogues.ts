// THE CATALOGUE REGISTRY. One line per feature catalogue; the namespace is the exported name, and its keys
// become `namespace.key` for useT(). To add a feature: create i18n/<feature>.ts exporting
// `export const <feature> = defineMessages({ ru: {…}, en: {…} });` and add one line below.
export { common } from './common';
export { quote } from './quote';
export { history } from './history';
export { carriers } from './carriers';
export { balance } from './balance';
export { settings } from './settings';
export { ratecards } from './ratecards';
export { carrierCheck } from './carrier-check';
// #17 items 2, 6, 10 (the quote form's input help)
export { quoteInput } from './quote-input';
// #20: company desks (Settings → «Сервер компании», the company strip, the audit log, users)
export { company } from './company';
// #20: named warehouses (Settings → Склады, the picker at «Откуда», «из всех складов»)
export { warehouses } from './warehouses';
// #21: the clerk's quote (COD, places, ship date, fees and dates, the customer's price, pickup points)
export { quoteExt } from './quote-ext';
// #21: resale prices (Settings → Наценка)
export { resale } from './resale';
// #21: «Пакетный расчёт», a day's shipments from a file
export { bulk } from './bulk';
