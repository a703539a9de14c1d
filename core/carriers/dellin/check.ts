// The live check of Деловые Линии (issue #15 item 6): the calls a quote makes, against the endpoint and appkey
// in settings, one at a time. Dellin has no login call: the appkey rides in every body (protocols.md §4.2), so
// the first authenticated call, the terminal lookup, is where a wrong key shows. Dellin has no test host either
// (audit, rate limits): the check runs on production and costs at most five calls (the terminal lookup, then
// a quote: two terminal lookups when not cached and two calculator calls).
import { findCity } from '../../locations/cities';
import { said, type CarrierCheckStep, type CheckMeasure, routeMeasure } from '../check';
import { MAX_CARRIER_RESPONSE_BYTES } from '../http';
import { createDellinAdapter, type DellinAdapterOptions } from './adapter';
import { requestTerminals } from './locations';
import { DellinTerminals } from './schema';
import { makeQuoteRequest } from '../quote-request';

/** The check's route and parcel: the biggest pair of towns Dellin serves with terminals, a small parcel. */
const FROM = 'Москва';
const TO = 'Казань';
const PARCEL = { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 };

/** What Dellin answered, for a step's error: the status and the start of the body. */
function answered(status: number, text: string): string {
  const body = text.replace(/\s+/g, ' ').trim();
  return `Dellin answered HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`;
}

export function dellinCheckSteps(options: DellinAdapterOptions): CarrierCheckStep[] {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const appkey = options.appkey?.trim() ?? '';
  let seen: { bytes: number; items: number; note: { ru: string; en: string } } | undefined;

  async function terminalsOfMoscow(
    signal: AbortSignal,
  ): Promise<{ bytes: number; items: number; note: { ru: string; en: string } }> {
    if (appkey === '') throw new Error('Dellin appkey is not set (carriers.dellin.appkey)');
    const moscow = findCity(FROM);
    if (!moscow) throw new Error(`${FROM} is not in the city table`);
    const res = await requestTerminals(baseUrl, appkey, moscow.kladrId, 'derival', signal);
    if (res.status < 200 || res.status > 299) throw new Error(answered(res.status, res.text));
    const parsed = DellinTerminals.safeParse(res.json);
    if (!parsed.success) throw new Error(`Dellin answered an unexpected body: ${res.text.slice(0, 300)}`);
    const list = parsed.data.terminals;
    if (list.length === 0) throw new Error(`Dellin lists no sending terminal in ${FROM}`);
    const main = list.find((t) => t.default === true) ?? list[0]!;
    seen = {
      bytes: Buffer.byteLength(res.text, 'utf8'),
      items: list.length,
      note: said(
        `терминал ${String(main.id)}${main.name ? ` «${main.name}»` : ''}`,
        `terminal ${String(main.id)}${main.name ? ` «${main.name}»` : ''}`,
      ),
    };
    return seen;
  }

  return [
    {
      kind: 'directory',
      subject: `POST /v1/public/request_terminals.json (${FROM}, derival)`,
      hint: {
        ru:
          'Первый вызов с ключом: HTTP 401/403 или ошибка с полем appkey — неверный ключ carriers.dellin.appkey ' +
          '(ключ бесплатно выдаёт dev.dellin.ru); сетевая ошибка — адрес (https://api.dellin.ru) или доступ ' +
          'из-за пределов России. Метод request_terminals считается нестабильным: повторите позже.',
        en:
          'The first call with the key: HTTP 401/403, or an error naming the appkey field, is a wrong ' +
          'carriers.dellin.appkey (dev.dellin.ru issues one free); a network error is the host ' +
          '(https://api.dellin.ru) or an IP outside Russia. request_terminals is reported unstable: retry later.',
      },
      run: async (signal): Promise<CheckMeasure> => {
        const { items, note } = await terminalsOfMoscow(signal);
        return { items, note };
      },
    },
    {
      kind: 'size',
      subject: `POST /v1/public/request_terminals.json (${FROM}, derival)`,
      hint: {
        ru:
          'Ответ справочника терминалов не должен приближаться к лимиту HTTP-клиента (1 МиБ). Если он вырос, ' +
          'Деловые Линии изменили форму ответа: сравните с dev.dellin.ru (поиск терминалов).',
        en:
          'The terminal lookup must stay far below the HTTP client cap (1 MiB). If it grew, Dellin changed ' +
          'the answer: compare with dev.dellin.ru (terminal search).',
      },
      run: async (signal): Promise<CheckMeasure> => {
        const { bytes, items } = seen ?? (await terminalsOfMoscow(signal));
        if (bytes >= MAX_CARRIER_RESPONSE_BYTES)
          throw new Error(`the terminal lookup answered ${bytes} bytes, over ${MAX_CARRIER_RESPONSE_BYTES}`);
        return { bytes, limitBytes: MAX_CARRIER_RESPONSE_BYTES, items };
      },
    },
    {
      kind: 'route',
      subject: `POST /v2/calculator.json ${FROM} → ${TO}`,
      hint: {
        ru:
          'Расчёт /v2/calculator.json без тарифа до терминала. «Dellin error <код>» — прочтите код ' +
          '(180003 — терминал не принимает груз, 180012 — дата недоступна, уже повторено на следующий день). ' +
          'Нет тарифа до двери — Деловые Линии не приняли адрес без улицы (DELLIN_STREETLESS_DOOR, аудит DL4): ' +
          'строка в журнале «Dellin gave no door rate».',
        en:
          'The /v2/calculator.json quote had no terminal rate. "Dellin error <code>": read the code (180003 no ' +
          'terminal takes the cargo, 180012 the date is unavailable, already retried with the next day). No ' +
          'door rate means Dellin refused the street-less address (DELLIN_STREETLESS_DOOR, audit DL4): the ' +
          'log says "Dellin gave no door rate".',
      },
      run: async (signal): Promise<CheckMeasure> => {
        const out = await createDellinAdapter(options).quote(
          makeQuoteRequest({
            from: { city: FROM, postalCode: null },
            to: { city: TO, postalCode: null },
            parcel: PARCEL,
            declaredValueKopecks: 0,
          }),
          { signal },
        );
        const measure = routeMeasure(out);
        if (out.ok && !out.rates.some((r) => r.delivery_type === 'terminal'))
          throw new Error(`no terminal rate, only ${out.rates.map((r) => r.service_code).join(', ')}`);
        return measure;
      },
    },
  ];
}
