// A day's shipments quoted from a file (#21 item 6), end to end on a real service with the sandbox carriers:
// a 1,000-row file with a bad row reported by its number, every good row quoted and kept in history, a cancel
// halfway that loses nothing, and the pace of an account's rate limit (the limit, not RateDesk, bounds it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkParseResult, BulkRunResult } from '../../../core/contract/operations';
import { startDesk, type DeskHarness } from '../desk/harness';

let desk: DeskHarness;
beforeAll(async () => {
  desk = await startDesk();
}, 60_000);
afterAll(() => desk.close());

const HEADER =
  'Номер заказа;Город отправителя;Индекс получателя;Город получателя;Вес, кг;Длина;Ширина;Высота;Мест';
const CITIES = ['Казань', 'Санкт-Петербург', 'Екатеринбург', 'Новосибирск', 'Самара'];

/** `n` rows; row `badAt` (0-based among the rows) has a weight nobody can read. */
export function shipmentsCsv(n: number, badAt?: number): string {
  const lines = [HEADER];
  for (let i = 0; i < n; i++) {
    const weight = i === badAt ? 'много' : `${(1 + (i % 40) / 10).toFixed(1).replace('.', ',')}`;
    lines.push(
      `З-${i + 1};Москва;;${CITIES[i % CITIES.length]};${weight};30;20;${10 + (i % 7)};${1 + (i % 2)}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

async function parse(text: string): Promise<BulkParseResult> {
  return desk.ok('bulk:parse', { filename: 'day.csv', content: b64(text) });
}

async function historyCount(): Promise<number> {
  return (await desk.service.store.quotes.search('', 100_000, 0)).length;
}

describe('a 1,000-row file', () => {
  it('is quoted row by row: the bad row reported with its number, every other row in the results and history', async () => {
    const parsed = await parse(shipmentsCsv(1000, 499));
    // Row 501 of the sheet: the header is row 1, so the 500th shipment is row 501.
    expect(parsed.problems).toEqual([{ line: 501, kind: 'bad_weight', field: 'weight_kg', value: 'много' }]);
    expect(parsed.bad_rows).toBe(1);
    expect(parsed.shipments).toHaveLength(999);
    expect(parsed.shipments[1]).toMatchObject({
      line: 3,
      reference: 'З-2',
      shipment: { from: { city: 'Москва' }, to: { city: 'Санкт-Петербург' }, places: [{ count: 2 }] },
    });
    const before = desk.eventsOf('bulk:progress').length;
    const result = await desk.ok('bulk:run', { runKey: 'day-1', rows: parsed.shipments });
    expect(result.state).toBe('done');
    expect(result.done).toBe(999);
    expect(result.rows.map((r) => r.line)).toEqual(parsed.shipments.map((s) => s.line));
    for (const row of result.rows) {
      expect(row.error).toBeNull();
      expect(row.quote_id).toBeGreaterThan(0);
      expect(row.rates.length).toBeGreaterThan(0);
      expect(row.cheapest).not.toBeNull();
      const cheapest = row.rates[row.cheapest!]!.price_kopecks;
      expect(Math.min(...row.rates.map((r) => r.price_kopecks))).toBe(cheapest);
    }
    // Every row streamed, the last one saying 999 of 999.
    const progress = desk.eventsOf('bulk:progress').slice(before);
    expect(progress).toHaveLength(999);
    expect(progress.at(-1)).toMatchObject({ runKey: 'day-1', done: 999, total: 999 });
    // Each quoted row is a desk quote of its own in history.
    const ids = new Set(result.rows.map((r) => r.quote_id));
    expect(ids.size).toBe(999);
    const stored = await desk.ok('history:get', { id: result.rows[500]!.quote_id! });
    expect(stored.source).toBe('desk');
    expect(stored.shipment.to.city).toBe(result.rows[500]!.to_city);

    // The export: a row per line of the file, the bad one with its reason, cheapest and chosen columns.
    const file = await desk.ok('bulk:export', {
      format: 'csv',
      rows: result.rows,
      problems: parsed.problems,
    });
    const lines = Buffer.from(file.base64, 'base64').toString('utf8').split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1 + 1000);
    // The reason in the UI's language and in the screen's words (it was English in a Russian file before).
    expect(lines[500]).toMatch(/^"501";.*"«Вес, кг»: «много» — не вес от 1 г до 1000 кг"$/);
    expect(lines[1]).toMatch(/^"2";"З-1";"Москва";"Казань";"1";"[^"]+";/);
    await desk.ok('settings:set', { name: 'ui.language', value: 'en' });
    try {
      const english = await desk.ok('bulk:export', { format: 'csv', rows: [], problems: parsed.problems });
      const text = Buffer.from(english.base64, 'base64').toString('utf8');
      expect(text).toContain('"""Weight, kg"": ""много"" is not a weight from 1 g to 1000 kg"');
    } finally {
      await desk.ok('settings:set', { name: 'ui.language', value: 'ru' });
    }
  }, 300_000);
});

describe('a cancel halfway', () => {
  it('keeps every row quoted before it, in the results and in history, and asks no row after it', async () => {
    const account = 'bulk-cancel';
    await desk.ok('accounts:create', { name: account, balance: 10 });
    await desk.ok('accounts:set-limits', { account, rps: 20, burst: 1 });
    const parsed = await parse(shipmentsCsv(200));
    const historyBefore = await historyCount();
    const run = desk.ok('bulk:run', { runKey: 'cancel-1', rows: parsed.shipments, account });
    // Cancel once about a quarter is done.
    for (;;) {
      const done = desk.eventsOf('bulk:progress').filter((e) => e.runKey === 'cancel-1').length;
      if (done >= 50) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await desk.ok('bulk:cancel', { runKey: 'cancel-1' })).toEqual({ cancelled: true });
    const result: BulkRunResult = await run;
    expect(result.state).toBe('cancelled');
    expect(result.done).toBeGreaterThanOrEqual(50);
    expect(result.done).toBeLessThan(200);
    expect(result.rows).toHaveLength(result.done);
    // Nothing lost: each row done is in history; nothing else was quoted.
    expect((await historyCount()) - historyBefore).toBe(result.done);
    for (const row of result.rows)
      expect((await desk.ok('history:get', { id: row.quote_id! })).id).toBe(row.quote_id);
    const streamed = desk.eventsOf('bulk:progress').filter((e) => e.runKey === 'cancel-1');
    expect(streamed.map((e) => e.row.line).sort((a, b) => a - b)).toEqual(result.rows.map((r) => r.line));
    // A run already over cannot be cancelled.
    expect(await desk.ok('bulk:cancel', { runKey: 'cancel-1' })).toEqual({ cancelled: false });
  }, 120_000);
});

describe('the pace', () => {
  it('is the account’s rate limit: rows per second ≈ rps, far below what the same rows go at unpaced', async () => {
    const account = 'bulk-slow';
    await desk.ok('accounts:create', { name: account, balance: 10 });
    await desk.ok('accounts:set-limits', { account, rps: 5, burst: 1 });
    const rows = (await parse(shipmentsCsv(30))).shipments;
    // The carriers' answers cached first, so neither run below waits for a carrier: what differs is the pace
    // alone, whatever the host's speed (a busy CI host quotes fresh rows slower than 5 a second).
    await desk.ok('bulk:run', { runKey: 'warm', rows });
    const paced = await desk.ok('bulk:run', { runKey: 'paced', rows, account });
    const free = await desk.ok('bulk:run', { runKey: 'free', rows });
    expect(paced.pace).toMatchObject({ account, rps: 5 });
    expect(free.pace).toMatchObject({ account: null, rps: null });
    const rate = (r: BulkRunResult): number => (r.done - 1) / (r.elapsed_ms / 1000);
    // A burst of 1 at 5 per second: 29 waits of 200 ms at least, so never above the limit (+ timer slack).
    expect(rate(paced)).toBeLessThanOrEqual(5 * 1.15);
    expect(rate(paced)).toBeGreaterThan(5 * 0.5);
    expect(rate(free)).toBeGreaterThan(rate(paced) * 2);
  }, 120_000);

  it('shares the account’s bucket with /v1: the run takes the tokens /v1 would get', async () => {
    const account = 'bulk-shared';
    await desk.ok('accounts:create', { name: account, balance: 10 });
    await desk.ok('accounts:set-limits', { account, rps: 0.5, burst: 3 });
    const rows = (await parse(shipmentsCsv(3))).shipments;
    const started = performance.now();
    await desk.ok('bulk:run', { runKey: 'shared', rows, account });
    expect(performance.now() - started).toBeLessThan(5_000);
    const taken = await desk.service.store.takeToken(
      String((await desk.service.store.accounts.byName(account))!.id),
      { rps: 0.5, burst: 3 },
      performance.now(),
    );
    expect(taken.allowed).toBe(false);
  }, 60_000);

  it('refuses an account that does not exist', async () => {
    const rows = (await parse(shipmentsCsv(1))).shipments;
    expect(await desk.fail('bulk:run', { runKey: 'nobody', rows, account: 'nobody' })).toMatchObject({
      code: 'not_found',
    });
  });
});
