// quote:run with streamed progress, cities, history search/get/rerun, CSV and XLSX export, curl.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskQuoteResult, QuoteProgress } from '../../../core/desk/contract';
import type { SqliteStore } from '../../../core/store';
import { SHIPMENT, startDesk, type DeskHarness } from './harness';
import { FIRST_TWO_CARRIERS } from '../../helpers/service';

const run = promisify(execFile);
let desk: DeskHarness;
let first: DeskQuoteResult;

beforeAll(async () => {
  desk = await startDesk(FIRST_TWO_CARRIERS);
  first = await desk.ok('quote:run', { quoteKey: 'q-1', shipment: SHIPMENT });
});
afterAll(() => desk.close());

describe('quote:run', () => {
  it('rates both sandbox carriers and keeps the quote in history', () => {
    expect(first.sandbox).toBe(true);
    expect(new Set(first.rates.map((r) => r.carrier))).toEqual(new Set(['cdek', 'russian-post']));
    const prices = first.rates.map((r) => r.price_kopecks);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // #9: the desk gets kinds only (no English reason text); `unavailable` is gone from its results.
    expect(first.failures).toEqual([]);
    expect(first.quote_id).toBeGreaterThan(0);
  });

  it('streams each carrier as waiting, then answered, under the caller’s quoteKey', () => {
    const progress = desk
      .eventsOf('quote:progress')
      .filter((e) => e.quoteKey === 'q-1')
      .map((e) => e.progress);
    for (const carrier of ['cdek', 'russian-post']) {
      const states = progress.filter((p) => p.carrier === carrier).map((p) => p.state);
      expect(states).toEqual(['waiting', 'answered']);
    }
    const streamed = progress.flatMap((p: QuoteProgress) => (p.state === 'answered' ? p.rates : []));
    expect(streamed.map((r) => r.service_code).sort()).toEqual(first.rates.map((r) => r.service_code).sort());
  });

  it('reports a carrier it cannot ask, with its kind', async () => {
    const q = await desk.ok('quote:run', {
      quoteKey: 'q-2',
      shipment: { ...SHIPMENT, carriers: ['cdek', 'dhl'] },
    });
    expect(q.failures).toEqual([{ carrier: 'dhl', kind: 'unknown_carrier' }]);
    expect(
      desk
        .eventsOf('quote:progress')
        .filter((e) => e.quoteKey === 'q-2')
        .map((e) => e.progress.carrier),
    ).toEqual(['cdek', 'cdek']);
  });

  it('rejects a bad shipment with every path named', async () => {
    const e = await desk.fail('quote:run', {
      quoteKey: 'q',
      shipment: { ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 0 }, to: { city: '' } },
    });
    expect(e.code).toBe('invalid');
    expect(e.message).toContain('shipment.parcel.weight_grams');
    expect(e.message).toContain('shipment.to.city');
    expect((await desk.fail('quote:run', { quoteKey: 'x'.repeat(65), shipment: SHIPMENT })).code).toBe(
      'invalid',
    );
  });
});

describe('cities:search', () => {
  it('lists recent places first, then the city table', async () => {
    const found = await desk.ok('cities:search', { query: 'каз' });
    expect(found[0]).toEqual({
      name: 'Казань',
      region: expect.any(String),
      postal_code: '420000',
      recent: true,
      match: 'prefix',
      confirm: null,
    });
    expect(found.slice(1).every((c) => !c.recent)).toBe(true);
    expect(found.filter((c) => c.name === 'Казань')).toHaveLength(1);
    expect(found.length).toBeLessThanOrEqual(10);
  });

  it('names how the text matches: an exact name and an alias are recognised, a prefix is not (#9)', async () => {
    const first = async (query: string) => (await desk.ok('cities:search', { query }))[0];
    expect(await first('Казань')).toMatchObject({ name: 'Казань', match: 'exact' });
    for (const [query, city] of [
      ['спб', 'Санкт-Петербург'],
      ['Питер', 'Санкт-Петербург'],
      ['екб', 'Екатеринбург'],
      ['мск', 'Москва'],
      ['Moscow', 'Москва'],
    ] as const) {
      expect(await first(query), query).toMatchObject({
        name: city,
        match: 'alias',
        postal_code: expect.any(String),
      });
    }
    expect(await first('Новосиб')).toMatchObject({ name: 'Новосибирск' });
    expect((await first('Tver'))?.name).toBe('Тверь');
    // Nothing starts with it: the closest names, marked so (#17: the core ranks them, not the UI).
    expect(await desk.ok('cities:search', { query: 'Кзнь', limit: 1 })).toEqual([
      {
        name: 'Казань',
        region: 'Республика Татарстан',
        postal_code: '420000',
        recent: false,
        match: 'closest',
        confirm: null,
      },
    ]);
  });

  it('answers an empty query with recent places only, and honours the limit', async () => {
    const recent = await desk.ok('cities:search', { query: '' });
    expect(recent.map((c) => c.name).sort()).toEqual(['Казань', 'Москва']);
    expect(await desk.ok('cities:search', { query: 'Са', limit: 3 })).toHaveLength(3);
    expect((await desk.fail('cities:search', { query: 'Са', limit: 21 })).code).toBe('invalid');
  });

  it('never suggests a sandbox trigger postal code as a recent place', async () => {
    await desk.ok('quote:run', {
      quoteKey: 'trigger',
      shipment: { ...SHIPMENT, to: { city: 'Тверь', postal_code: '999913' } },
    });
    const recent = await desk.ok('cities:search', { query: '' });
    expect(recent.some((c) => c.postal_code === '999913')).toBe(false);
    expect(recent.map((c) => c.name)).not.toContain('Тверь');
  });

  it('ranks by how people write (#17): a recent place never outranks the town the text names', async () => {
    await desk.ok('quote:run', {
      quoteKey: 'zgr',
      shipment: { ...SHIPMENT, to: { city: 'Зеленоградск', postal_code: '238326' } },
    });
    const found = await desk.ok('cities:search', { query: 'Зеленоград' });
    expect(found.slice(0, 2)).toMatchObject([
      { name: 'Зеленоград', region: 'Москва', postal_code: '124482', match: 'exact', confirm: null },
      { name: 'Зеленоградск', recent: true, match: 'prefix', confirm: 'far' },
    ]);
    // The Latin layout, an index (kept as typed), namesakes and the postal hint that settles them.
    expect((await desk.ok('cities:search', { query: 'Rfpfym' }))[0]).toMatchObject({
      name: 'Казань',
      match: 'alias',
    });
    expect(await desk.ok('cities:search', { query: '420111' })).toEqual([
      {
        name: 'Казань',
        region: 'Республика Татарстан',
        postal_code: '420111',
        recent: false,
        match: 'postal',
        confirm: null,
      },
    ]);
    expect((await desk.ok('cities:search', { query: 'Троицк' })).map((c) => [c.region, c.confirm])).toEqual([
      ['Челябинская область', 'ambiguous'],
      ['Москва', 'ambiguous'],
    ]);
    expect((await desk.ok('cities:search', { query: 'Троицк', postal_code: '108840' }))[0]).toMatchObject({
      region: 'Москва',
      confirm: null,
    });
    expect((await desk.fail('cities:search', { query: 'Троицк', postal_code: '1088' })).code).toBe('invalid');
  });
});

describe('history', () => {
  it('searches, newest first, by city', async () => {
    const all = await desk.ok('history:search', {});
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all[0]!.id).toBeGreaterThan(all[1]!.id);
    const row = all.find((r) => r.id === first.quote_id)!;
    expect(row).toMatchObject({
      source: 'desk',
      from_city: 'Москва',
      to_city: 'Казань',
      weight_grams: 1200,
      sandbox: true,
    });
    expect(row.cheapest_kopecks).toBe(first.rates[0]!.price_kopecks);
    expect(row.carriers.sort()).toEqual(['cdek', 'russian-post']);
    expect(await desk.ok('history:search', { text: 'Владивосток' })).toEqual([]);
    expect(await desk.ok('history:search', { text: 'Казань', limit: 1 })).toHaveLength(1);
    expect((await desk.fail('history:search', { limit: 0 })).code).toBe('invalid');
  });

  it('opens a quote with its shipment and results', async () => {
    const q = await desk.ok('history:get', { id: first.quote_id });
    expect(q.shipment).toMatchObject(SHIPMENT);
    expect(q.rates).toEqual(first.rates);
    expect(q.request_id).toBe(first.request_id);
    expect((await desk.fail('history:get', { id: -1 })).code).toBe('invalid');
    expect(await desk.fail('history:get', { id: 999_999 })).toEqual({
      code: 'not_found',
      message: 'No quote #999999 in history.',
    });
  });

  it('re-runs a quote and lists every price change', async () => {
    // Make the stored result differ from today's prices: one dearer, one service gone, one new.
    const [a, b, ...rest] = first.rates;
    const stored = {
      rates: [{ ...a!, price_kopecks: a!.price_kopecks + 5000 }, ...rest, { ...b!, service_code: 'retired' }],
      unavailable: [],
    };
    // Written behind the service's back, through the SQLite implementation's own connection.
    (desk.service.store as SqliteStore).db
      .prepare('UPDATE quotes SET result_json = ? WHERE id = ?')
      .run(JSON.stringify(stored), first.quote_id);

    const r = await desk.ok('history:rerun', { id: first.quote_id, quoteKey: 'rerun-1' });
    expect(r.quote.quote_id).not.toBe(first.quote_id);
    expect(
      desk
        .eventsOf('quote:progress')
        .some((e) => e.quoteKey === 'rerun-1' && e.progress.state === 'answered'),
    ).toBe(true);
    const byCode = new Map(r.changes.map((c) => [c.service_code, c]));
    expect(byCode.get(a!.service_code)).toMatchObject({
      before_kopecks: a!.price_kopecks + 5000,
      after_kopecks: a!.price_kopecks,
    });
    expect(byCode.get(b!.service_code)).toMatchObject({
      before_kopecks: null,
      after_kopecks: b!.price_kopecks,
    });
    expect(byCode.get('retired')).toMatchObject({ before_kopecks: b!.price_kopecks, after_kopecks: null });
    for (const rate of rest) {
      expect(byCode.get(rate.service_code)).toMatchObject({
        before_kopecks: rate.price_kopecks,
        after_kopecks: rate.price_kopecks,
      });
    }
    expect(r.changes.at(-1)!.service_code).toBe('retired');
    expect((await desk.fail('history:rerun', { id: first.quote_id })).code).toBe('invalid');
    expect((await desk.fail('history:rerun', { id: 424242, quoteKey: 'k' })).code).toBe('not_found');
  });
});

/** A line of the export whose fields hold no ';' and no '"': each field without its enclosing quotes. */
const unquotedFields = (line: string): string[] => line.split(';').map((f) => f.replace(/^"(.*)"$/, '$1'));

describe('history:export', () => {
  it('writes a CSV Russian Excel opens: BOM, ";" and decimal commas, one row per rate', async () => {
    const file = await desk.ok('history:export', { format: 'csv', text: 'Казань' });
    expect(file.filename).toMatch(/^ratedesk-history-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.mime).toBe('text/csv;charset=utf-8');
    const bytes = Buffer.from(file.base64, 'base64');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    // #9: the «Цены» column marks sandbox prices in every row; #20: then warehouse and author.
    // #16: every field quoted (RFC 4180); none of these holds a ';' or a '"', so a split is enough here.
    // #21: a file holding a clerk's quote (every desk quote since) adds its columns after these twelve.
    expect(lines[0]).toBe(
      '"Дата";"Откуда";"Куда";"Вес, г";"Перевозчик";"Услуга";"Доставка";"Цена, ₽";"Срок, дн.";"Цены";"Склад";"Автор";' +
        '"Наложенный платёж, ₽";"Мест";"Дата отгрузки";"Тариф, ₽";"Страховка, ₽";"Комиссия за НП, ₽";' +
        '"Доставка с";"Доставка по";"Не входит в цену";"Цена клиенту, ₽";"Пункт выдачи"',
    );
    const rows = lines.slice(1, -1).map(unquotedFields);
    const quotes = await desk.ok('history:search', { text: 'Казань', limit: 500 });
    let expected = 0;
    for (const q of quotes) expected += (await desk.ok('history:get', { id: q.id })).rates.length;
    expect(rows).toHaveLength(expected);
    for (const row of rows) {
      expect(row).toHaveLength(23);
      expect(row[9]).toBe('ПЕСОЧНИЦА: цены не настоящие');
      // This computer's desk, no warehouse picked: both empty.
      expect(row.slice(10, 12)).toEqual(['', '']);
      // One parcel, no COD: "0,00" and 1 place.
      expect(row.slice(12, 14)).toEqual(['0,00', '1']);
      expect(row[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(row.slice(1, 4)).toEqual(['Москва', 'Казань', '1200']);
      expect(['СДЭК', 'Почта России']).toContain(row[4]);
      expect(row[7]).toMatch(/^\d+,\d{2}$/);
      expect(row[8]).toMatch(/^(\d+|\d+–\d+|)$/);
    }
    const cheapest = first.rates[0]!.price_kopecks;
    expect(rows.map((r) => r[7])).toContain(
      `${Math.floor(cheapest / 100)},${String(cheapest % 100).padStart(2, '0')}`,
    );
  });

  it('writes an XLSX that exceljs reads back cell for cell', async () => {
    const csvFile = await desk.ok('history:export', { format: 'csv' });
    const csvRows = Buffer.from(csvFile.base64, 'base64')
      .toString('utf8')
      .slice(1)
      .split('\r\n')
      .slice(1, -1);
    const file = await desk.ok('history:export', { format: 'xlsx' });
    expect(file.filename).toMatch(/\.xlsx$/);
    expect(file.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('История');
    expect(ws.getRow(1).getCell(1).value).toBe('Дата');
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(ws.rowCount).toBe(csvRows.length + 1);
    csvRows.forEach((line, i) => {
      const csv = unquotedFields(line);
      const row = ws.getRow(i + 2);
      expect(row.getCell(2).value).toBe(csv[1]);
      expect(row.getCell(4).value).toBe(Number(csv[3]));
      const price = row.getCell(8).value;
      expect(typeof price).toBe('number');
      expect((price as number).toFixed(2).replace('.', ',')).toBe(csv[7]);
      expect(row.getCell(8).numFmt).toBe('#,##0.00');
    });
    expect((await desk.fail('history:export', { format: 'pdf' })).code).toBe('invalid');
  });
});

describe('history:curl', () => {
  it('is a working command for /v1 that never holds a key', async () => {
    const cmd = await desk.ok('history:curl', { id: first.quote_id });
    expect(cmd).toContain('Authorization: Bearer $RATEDESK_API_KEY');
    expect(cmd).toMatch(/Idempotency-Key: [0-9a-f-]{36}/);
    expect(cmd).not.toMatch(/rdk_/);
    expect(cmd).toContain(`${desk.service.listener!.url}/v1/rates`);
    const key = (await desk.ok('keys:create', { account: 'default', name: 'curl test' })).secret;
    const { stdout } = await run('bash', ['-c', cmd], { env: { ...process.env, RATEDESK_API_KEY: key } });
    const body = JSON.parse(stdout) as { rates: unknown[]; balance_remaining: number };
    expect(body.rates).toHaveLength(first.rates.length);
    // The same pasted command again is an idempotent replay, not a second charge.
    const again = JSON.parse(
      (await run('bash', ['-c', cmd], { env: { ...process.env, RATEDESK_API_KEY: key } })).stdout,
    );
    expect(again.balance_remaining).toBe(body.balance_remaining);
    expect((await desk.fail('history:curl', { id: '1' })).code).toBe('invalid');
  });

  it('quotes shell metacharacters in city names safely', async () => {
    const q = await desk.ok('quote:run', {
      quoteKey: 'q-shell',
      shipment: { ...SHIPMENT, to: { city: `Ка'зань $(touch /tmp/pwned) \`x\`` }, carriers: ['cdek'] },
    });
    const cmd = await desk.ok('history:curl', { id: q.quote_id });
    const { stdout } = await run('bash', [
      '-c',
      cmd.replace(/^curl /, 'printf "%s\\n" ').replace(/ -sS -X POST/, ''),
    ]);
    expect(stdout).toContain(`"city":"Ка'зань $(touch /tmp/pwned) \`x\`"`);
  });
});
