// The region names people read: the forms of the Constitution (art. 65) — "… область", "… край",
// "Республика …", "… автономный округ" — instead of the source table's abbreviations ("обл", "АО", "Респ"),
// with an em dash inside a name. Matching is unaffected: regionKey() folds both forms to the same key.

/** Republics the source names without the word (art. 65 lists them as "Республика …"). */
const REPUBLICS = new Set([
  'Адыгея',
  'Алтай',
  'Башкортостан',
  'Бурятия',
  'Дагестан',
  'Ингушетия',
  'Калмыкия',
  'Карелия',
  'Коми',
  'Крым',
  'Марий Эл',
  'Мордовия',
  'Саха (Якутия)',
  'Северная Осетия — Алания',
  'Татарстан',
  'Тыва',
  'Хакасия',
]);

export function officialRegionName(source: string): string {
  let name = source
    .replace(/\s+-\s+/g, ' — ')
    .replace(/ обл$/, ' область')
    .replace(/ Аобл$/, ' автономная область')
    .replace(/ АО$/, ' автономный округ')
    .replace(/ Автономный округ/, ' автономный округ')
    .replace(/ Респ$/, ' Республика');
  if (REPUBLICS.has(name)) name = `Республика ${name}`;
  return name;
}
