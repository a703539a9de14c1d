// «Пакетный расчёт» (#21 item 6): a day's shipments quoted from a CSV or Excel file.
import { BULK_FIELD_NAMES, BULK_PROBLEM_TEXTS } from '../../../core/contract/operations/bulk-words';
import { defineMessages, plural, type Message } from './define';

// Field names and problem texts are the core's (core/contract/operations/bulk-words.ts): the exported file
// says them in the same words.
const FIELDS_RU = BULK_FIELD_NAMES.ru;
const FIELDS_EN = BULK_FIELD_NAMES.en;
const PROBLEMS_RU = BULK_PROBLEM_TEXTS.ru;
const PROBLEMS_EN = BULK_PROBLEM_TEXTS.en;

const prefixed = <P extends string, T extends string>(
  prefix: P,
  table: Record<T, string>,
): Record<`${P}${T}`, Message> =>
  Object.fromEntries(Object.entries(table).map(([k, v]) => [`${prefix}${k}`, v as string])) as Record<
    `${P}${T}`,
    Message
  >;

export const bulk = defineMessages({
  ru: {
    title: 'Пакетный расчёт',
    intro:
      'Файл CSV или Excel с отправлениями за день: строка — отправление. Выберите файл, проверьте столбцы и рассчитайте все строки сразу.',
    chooseFile: 'Выбрать файл…',
    reading: 'Читаем файл…',
    fileLine: (p) =>
      `${String(p.name)}: ${plural('ru', Number(p.rows), { one: '{n} строка', few: '{n} строки', many: '{n} строк', other: '{n} строки' }).replace('{n}', String(p.rows))}`,
    mapping: 'Столбцы',
    mappingHint: 'Поле отправления — столбец файла. Предложено по заголовкам; поправьте, если нужно.',
    notUsed: '— нет в файле —',
    preview: 'Первые строки',
    line: 'Строка',
    problemsTitle: (p) => `Строки с ошибками: ${String(p.n)} (они не будут рассчитаны)`,
    problemLine: 'Строка {line}: {text}',
    moreProblems: '…и ещё {n}',
    origin: 'Откуда для строк без отправителя',
    originCity: 'Город отправки',
    account: 'Темп расчёта',
    accountNone: 'Без аккаунта (только предел одновременных запросов)',
    accountHint: 'С аккаунтом расчёт идёт не быстрее его лимита запросов в секунду, как /v1.',
    run: (p) =>
      `Рассчитать ${plural('ru', Number(p.n), { one: '{n} строку', few: '{n} строки', many: '{n} строк', other: '{n} строки' }).replace('{n}', String(p.n))}`,
    nothingToRun: 'Нет строк для расчёта',
    progress: 'Рассчитано {done} из {total}',
    cancel: 'Остановить',
    cancelled: 'Остановлено: рассчитано {done} из {total}. Рассчитанные строки сохранены в истории.',
    finished: 'Готово: {done} строк за {seconds} с',
    results: 'Результаты',
    colRef: 'Номер',
    colTo: 'Куда',
    colWeight: 'Вес, кг',
    colCheapest: 'Дешевле всего',
    colFastest: 'Быстрее всего',
    colChosen: 'Выбранная услуга',
    noRates: 'Нет тарифов',
    exportCsv: 'Сохранить CSV',
    exportXlsx: 'Сохранить Excel',
    sandbox: 'Песочница: цены не настоящие',
    chosenLabel: 'Услуга для строки {line}',
    ...prefixed('field.', FIELDS_RU),
    ...prefixed('problem.', PROBLEMS_RU),
  },
  en: {
    title: 'Bulk quote',
    intro:
      'A CSV or Excel file of the day’s shipments, one per row. Choose the file, check the columns and quote every row at once.',
    chooseFile: 'Choose a file…',
    reading: 'Reading the file…',
    fileLine: (p) => `${String(p.name)}: ${String(p.rows)} ${Number(p.rows) === 1 ? 'row' : 'rows'}`,
    mapping: 'Columns',
    mappingHint:
      'Each shipment field and the file’s column it comes from. Suggested from the headers; change what is wrong.',
    notUsed: '— not in the file —',
    preview: 'First rows',
    line: 'Row',
    problemsTitle: (p) => `Rows with errors: ${String(p.n)} (they will not be quoted)`,
    problemLine: 'Row {line}: {text}',
    moreProblems: '…and {n} more',
    origin: 'From, for rows without a sender',
    originCity: 'Ship from (city)',
    account: 'Pace',
    accountNone: 'No account (the in-flight bound only)',
    accountHint: 'With an account the run goes no faster than its requests-per-second limit, as /v1.',
    run: (p) => `Quote ${String(p.n)} ${Number(p.n) === 1 ? 'row' : 'rows'}`,
    nothingToRun: 'No rows to quote',
    progress: '{done} of {total} quoted',
    cancel: 'Stop',
    cancelled: 'Stopped: {done} of {total} quoted. The rows quoted are kept in History.',
    finished: 'Done: {done} rows in {seconds} s',
    results: 'Results',
    colRef: 'Reference',
    colTo: 'To',
    colWeight: 'Weight, kg',
    colCheapest: 'Cheapest',
    colFastest: 'Fastest',
    colChosen: 'Chosen service',
    noRates: 'No rates',
    exportCsv: 'Save CSV',
    exportXlsx: 'Save Excel',
    sandbox: 'Sandbox: prices are not real',
    chosenLabel: 'Service for row {line}',
    ...prefixed('field.', FIELDS_EN),
    ...prefixed('problem.', PROBLEMS_EN),
  },
});
