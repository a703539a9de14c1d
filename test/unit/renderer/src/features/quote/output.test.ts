// #17 item 5: the Quote screen's ways out. Service names never repeat the carrier or the delivery type in a
// joined line; the tab-separated copy pastes as columns, starts with the sandbox marker and never carries
// a formula.
import { describe, expect, it } from 'vitest';
import type { Rate } from '../../../../../../core/contract/v1';
import { localeDecimal, resultsAsTsv, tsvCell } from '../../../../../../renderer/src/features/quote/copy-tsv';
import { rateAsText, resultsAsText } from '../../../../../../renderer/src/features/quote/copy-text';
import {
  saysDelivery,
  serviceLabel,
  serviceParts,
} from '../../../../../../renderer/src/features/quote/service-label';
import { carrierNamer } from '../../../../../../renderer/src/lib/carrier-names';
import { NBSP } from '../../../../../../renderer/src/lib/format';

const RU: Record<Rate['delivery_type'], string> = {
  door: 'до двери',
  pickup_point: 'ПВЗ',
  post_office: 'отделение',
  terminal: 'терминал',
  unknown: 'другое',
};
const EN: Record<Rate['delivery_type'], string> = {
  door: 'to door',
  pickup_point: 'pickup point',
  post_office: 'post office',
  terminal: 'terminal',
  unknown: 'other',
};
const ru = (t: Rate['delivery_type']): string => RU[t];
/** The rows' own names (their codes here are made up): what lib/carrier-names.ts falls back to. */
const stored = carrierNamer([], 'ru');
const en = (t: Rate['delivery_type']): string => EN[t];

function rate(carrier_name: string, service_name: string, delivery_type: Rate['delivery_type']): Rate {
  return {
    carrier: carrier_name.toLowerCase(),
    carrier_name,
    service_code: service_name,
    service_name,
    delivery_type,
    price_kopecks: 45000,
    currency: 'RUB',
    days_min: 7,
    days_max: 9,
    price_type: 'public',
  };
}

// The sandbox carriers' own names (Москва → Казань), the ones that read twice before.
const DELLIN = rate('Деловые Линии', 'Автоперевозка, терминал — терминал', 'terminal');
const DELLIN_DOOR = rate('Деловые Линии', 'Автоперевозка, терминал — до двери', 'door');
const PEK = rate('ПЭК', 'LTL Авто, до терминала', 'terminal');
const BOXBERRY = rate('Boxberry', 'Курьером до двери', 'door');
const DPD = rate('DPD', 'DPD OPTIMUM, до пункта выдачи', 'pickup_point');
const YANDEX = rate('Яндекс Доставка', 'До пункта выдачи', 'pickup_point');
const CDEK = rate('СДЭК', 'Посылка склад-склад', 'pickup_point');
const POST = rate('Почта России', 'Посылка онлайн обыкновенная', 'post_office');

describe('service names in a joined line', () => {
  it('«терминал — терминал — терминал» reads once', () => {
    expect(rateAsText(DELLIN, stored, ru, 'ru')).toBe(
      `Деловые Линии — Автоперевозка, терминал–терминал — 7–9${NBSP}дн. — 450,00${NBSP}₽`,
    );
  });

  it.each([
    [DELLIN_DOOR, ['Автоперевозка, терминал–до двери']],
    [PEK, ['LTL Авто, до терминала']],
    [BOXBERRY, ['Курьером до двери']],
    [DPD, ['OPTIMUM, до пункта выдачи']],
    [YANDEX, ['До пункта выдачи']],
    // Nothing in the name says the type: the label stays.
    [CDEK, ['Посылка склад-склад', 'ПВЗ']],
    [POST, ['Посылка онлайн обыкновенная', 'отделение']],
  ])('%o → %o', (r, parts) => {
    expect(serviceParts(r, ru, 'ru')).toEqual(parts);
  });

  it('keeps the English label beside a Russian name (it is the only English word there)', () => {
    expect(serviceParts(DELLIN, en, 'en')).toEqual(['Автоперевозка, терминал–терминал', 'terminal']);
    expect(saysDelivery('Courier to the door', 'door', 'en')).toBe(true);
    expect(saysDelivery('Terminal to terminal', 'terminal', 'en')).toBe(true);
    expect(saysDelivery('Anything', 'unknown', 'ru')).toBe(false);
  });

  it('drops only a leading carrier name followed by more words', () => {
    expect(serviceLabel({ carrier_name: 'DPD', service_name: 'DPD' })).toBe('DPD');
    expect(serviceLabel({ carrier_name: 'DPD', service_name: 'DPDX Classic' })).toBe('DPDX Classic');
    expect(serviceLabel({ carrier_name: '5Post', service_name: 'Пункт 5Post' })).toBe('Пункт 5Post');
    expect(serviceLabel({ carrier_name: 'сдэк', service_name: 'СДЭК Экспресс' })).toBe('Экспресс');
  });

  it('no line of the copied table repeats a word across its separators', () => {
    const text = resultsAsText(
      [DELLIN, DELLIN_DOOR, PEK, BOXBERRY, DPD, YANDEX],
      stored,
      ru,
      'ru',
      'Москва → Казань',
    );
    for (const line of text.split('\n').slice(1)) {
      const parts = line.split(' — ').map((p) => p.toLowerCase());
      for (let i = 1; i < parts.length; i++) {
        const last = parts[i - 1]!.split(/[\s,–-]+/).at(-1)!;
        const first = parts[i]!.split(/[\s,–-]+/)[0]!;
        expect(`${last}|${first}`, line).not.toMatch(/^(\S{4,})\|\1$/);
      }
      expect(line).not.toMatch(/^(\S+) — \1 /);
    }
  });
});

describe('the tab-separated copy', () => {
  const words = {
    headers: ['Перевозчик', 'Тариф', 'Доставка', 'Срок, дн.', 'Цена, ₽'] as const,
    nameOf: stored,
    deliveryLabel: ru,
    heading: 'Москва → Казань · 1,2 кг, 30×20×10 см',
    decimal: ',' as const,
  };

  it('is a heading, a header row and one row of five columns per option, CRLF between lines', () => {
    const a = { ...CDEK, price_kopecks: 123450, days_min: 2, days_max: 3 };
    const b = { ...POST, price_kopecks: 5, days_min: 4, days_max: 4 };
    const c = { ...DELLIN, days_min: null, days_max: null };
    expect(resultsAsTsv([a, b, c], words).split('\r\n')).toEqual([
      'Москва → Казань · 1,2 кг, 30×20×10 см',
      'Перевозчик\tТариф\tДоставка\tСрок, дн.\tЦена, ₽',
      'СДЭК\tПосылка склад-склад\tПВЗ\t2–3\t1234,50',
      'Почта России\tПосылка онлайн обыкновенная\tотделение\t4\t0,05',
      'Деловые Линии\tАвтоперевозка, терминал — терминал\tтерминал\t\t450,00',
    ]);
  });

  it('starts with the sandbox marker on a line of its own', () => {
    const lines = resultsAsTsv([CDEK], { ...words, sandboxMarker: '[ПЕСОЧНИЦА — цена не настоящая]' }).split(
      '\r\n',
    );
    expect(lines[0]).toBe('[ПЕСОЧНИЦА — цена не настоящая]');
    expect(lines[1]).toBe(words.heading);
    expect(lines).toHaveLength(4);
  });

  it('writes prices with the decimal separator of the computer’s locale', () => {
    expect(resultsAsTsv([CDEK], { ...words, decimal: '.' }).split('\r\n')[2]).toMatch(/\t450\.00$/);
    expect(localeDecimal('ru-RU')).toBe(',');
    expect(localeDecimal('de-DE')).toBe(',');
    expect(localeDecimal('en-US')).toBe('.');
    expect(localeDecimal('not a locale!')).toBe(',');
  });

  it('names carriers in the UI language: English names from the carrier list, a rate card as stored', () => {
    const list = [
      { code: 'cdek', name: 'СДЭК', name_en: 'CDEK' },
      { code: 'russian-post', name: 'Почта России', name_en: 'Russian Post' },
    ];
    const cdek = { ...CDEK, carrier: 'cdek' };
    const post = { ...POST, carrier: 'russian-post' };
    const card = { ...rate('Своя доставка', 'Город', 'door'), carrier: 'my-card' };
    const en = resultsAsTsv([cdek, post, card], { ...words, nameOf: carrierNamer(list, 'en') });
    expect(
      en
        .split('\r\n')
        .slice(2)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['CDEK', 'Russian Post', 'Своя доставка']);
    const ru = resultsAsTsv([cdek, post], { ...words, nameOf: carrierNamer(list, 'ru') });
    expect(
      ru
        .split('\r\n')
        .slice(2)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['СДЭК', 'Почта России']);
    expect(rateAsText(cdek, carrierNamer(list, 'en'), () => 'pickup point', 'en')).toMatch(/^CDEK — /);
  });

  it('keeps every cell one cell and never a formula', () => {
    expect(tsvCell('a\tb\r\nc')).toBe('a b c');
    const evil = rate('=HYPERLINK("http://x")', '@SUM(1+1)', 'door');
    const line = resultsAsTsv([evil], { ...words, heading: '=1+1 → Казань' }).split('\r\n');
    expect(line[0]).toBe("'=1+1 → Казань");
    const cells = line[2]!.split('\t');
    expect(cells).toHaveLength(5);
    expect(cells[0]).toBe(`'=HYPERLINK("http://x")`);
    expect(cells[1]).toBe("'@SUM(1+1)");
    for (const cell of line.flatMap((l) => l.split('\t'))) expect(cell).not.toMatch(/^[=+\-@]/);
  });
});
