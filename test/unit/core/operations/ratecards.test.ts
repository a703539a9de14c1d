// The rate-card operations on a real data file: import, list, check, replace, remove, and refusals.
import { describe, expect, it } from 'vitest';
import { OperationError, runStore, type StoreContext } from '../../../../core/operations';
import type { SqliteStore } from '../../../../core/store';
import { freshFolder } from '../../../helpers/store-fixtures';

const HEADER = 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type,service_code,service_name';
const GOOD = `${HEADER}\nМосква,*,1000,350,1,2,door,city,Курьер\nМосква,*,5000,490,1,2,door,city,Курьер\n*,*,5000,300,2,4,pickup_point,,\n`;
const BAD = `${HEADER}\nМосква,*,1000,"3,505",1,2,door,city,Курьер\n*,*,5000,300,2,4,boat,,\n`;

/** The SQLite store itself, so a test can look at the rows it wrote. */
function ctx(): StoreContext & { store: SqliteStore } {
  const { store, clock } = freshFolder();
  return { store, clock };
}

async function failure(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

describe('ratecards:import', () => {
  it('stores the parsed rows and answers the card as ratecards:list shows it', async () => {
    const c = ctx();
    const card = await runStore(c, 'ratecards:import', { code: 'courier', name: 'Курьер Плюс', csv: GOOD });
    expect(card).toEqual({
      code: 'courier',
      name: 'Курьер Плюс',
      volumetric_divisor: 5000,
      rows: 3,
      services: [
        { service_code: 'courier:city', service_name: 'Курьер', delivery_type: 'door' },
        { service_code: 'courier:pickup_point', service_name: 'Курьер Плюс', delivery_type: 'pickup_point' },
      ],
      max_weight_grams: 5000,
      created_at: '2025-03-01T10:00:00.000Z',
      status: 'unknown',
      replaced: false,
    });
    const { replaced: _replaced, ...view } = card;
    expect(await runStore(c, 'ratecards:list', {})).toEqual([view]);
    // The rows, not the file: what the store keeps is what the parser read.
    const row = c.store.db.prepare('SELECT * FROM rate_card_rows WHERE line = 2').get() as Record<
      string,
      unknown
    >;
    expect(row).toMatchObject({
      from_kind: 'city',
      from_value: 'Москва',
      to_kind: 'any',
      price_kopecks: 35000,
    });
  });

  it('refuses a bad file whole: every bad line in the message, nothing stored', async () => {
    const c = ctx();
    const e = await failure(() => runStore(c, 'ratecards:import', { code: 'courier', name: 'x', csv: BAD }));
    expect(e.code).toBe('invalid');
    expect(e.message.split('\n')).toEqual([
      'The rate card was refused and nothing was imported: 2 bad lines.',
      'line 2: price_rub: "3,505" is not a price in roubles with at most 2 decimals (1234.50 or 1 234,50)',
      'line 3: delivery_type: "boat" is not one of door, pickup_point, terminal, post_office, unknown',
    ]);
    expect(await runStore(c, 'ratecards:list', {})).toEqual([]);
    expect(c.store.db.prepare('SELECT COUNT(*) AS n FROM rate_card_rows').get()).toEqual({ n: 0 });
  });

  it('replaces a card of the same code in one step; a refused re-import leaves the old card as it was', async () => {
    const c = ctx();
    await runStore(c, 'ratecards:import', { code: 'courier', name: 'Old', csv: GOOD });
    const before = await runStore(c, 'ratecards:list', {});
    await failure(() => runStore(c, 'ratecards:import', { code: 'courier', name: 'New', csv: BAD }));
    expect(await runStore(c, 'ratecards:list', {})).toEqual(before);

    const next = await runStore(c, 'ratecards:import', {
      code: 'courier',
      name: 'New',
      csv: `${HEADER}\n*,*,2000,100,1,1,door,,\n`,
      volumetric_divisor: 4000,
    });
    expect(next).toMatchObject({ name: 'New', rows: 1, volumetric_divisor: 4000, replaced: true });
    expect((await runStore(c, 'ratecards:list', {})).map((x) => [x.code, x.name, x.rows])).toEqual([
      ['courier', 'New', 1],
    ]);
    expect(c.store.db.prepare('SELECT COUNT(*) AS n FROM rate_card_rows').get()).toEqual({ n: 1 });
  });

  it('refuses a built-in carrier code, a malformed code, name or divisor', async () => {
    const c = ctx();
    const builtIn = await failure(() =>
      runStore(c, 'ratecards:import', { code: 'cdek', name: 'x', csv: GOOD }),
    );
    expect(builtIn.code).toBe('conflict');
    expect(builtIn.message).toMatch(/built-in carrier/);
    for (const input of [
      { code: 'Courier', name: 'x', csv: GOOD },
      { code: 'courier x', name: 'x', csv: GOOD },
      { code: 'c'.repeat(41), name: 'x', csv: GOOD },
      { code: 'courier', name: ' ', csv: GOOD },
      { code: 'courier', name: 'x', csv: GOOD, volumetric_divisor: 0 },
      { code: 'courier', name: 'x', csv: GOOD, volumetric_divisor: 5000.5 },
    ]) {
      expect((await failure(() => runStore(c, 'ratecards:import', input))).code).toBe('invalid');
    }
  });
});

describe('ratecards:check', () => {
  it('reads without storing: rows, services and every problem with its line', async () => {
    const c = ctx();
    expect(await runStore(c, 'ratecards:check', { csv: GOOD })).toEqual({
      rows: 3,
      services: 2,
      problems: [],
      more_problems: 0,
      bad_lines: 0,
    });
    expect(await runStore(c, 'ratecards:check', { csv: BAD })).toEqual({
      rows: 0,
      services: 0,
      problems: [
        { line: 2, kind: 'bad_price', column: 'price_rub', header: 'price_rub', value: '3,505' },
        {
          line: 3,
          kind: 'bad_delivery_type',
          column: 'delivery_type',
          header: 'delivery_type',
          value: 'boat',
        },
      ],
      more_problems: 0,
      bad_lines: 2,
    });
    expect(await runStore(c, 'ratecards:list', {})).toEqual([]);
  });
});

describe('a file of bad rows (#16 item 6)', () => {
  it('check and import report the first 100 problems and how many more, in the data and the message', async () => {
    const c = ctx();
    const header = 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type';
    const csv = [header, ...Array.from({ length: 1_000 }, () => '*,*,1000,x,1,2,door')].join('\n');
    const check = await runStore(c, 'ratecards:check', { csv });
    expect(check.problems).toHaveLength(100);
    expect(check.more_problems).toBe(900);
    expect(check.bad_lines).toBe(1_000);
    const message = (await failure(() => runStore(c, 'ratecards:import', { code: 'c', name: 'c', csv })))
      .message;
    expect(message.split('\n')).toHaveLength(102);
    expect(message).toMatch(/^The rate card was refused and nothing was imported: 1000 bad lines\./);
    expect(message).toMatch(/\n… and 900 more problems\.$/);
  });
});

describe('ratecards:remove', () => {
  it('removes the card and its rows; an unknown code is not_found', async () => {
    const c = ctx();
    await runStore(c, 'ratecards:import', { code: 'courier', name: 'Курьер', csv: GOOD });
    expect(await runStore(c, 'ratecards:remove', { code: 'courier' })).toEqual({
      code: 'courier',
      name: 'Курьер',
    });
    expect(await runStore(c, 'ratecards:list', {})).toEqual([]);
    expect(c.store.db.prepare('SELECT COUNT(*) AS n FROM rate_card_rows').get()).toEqual({ n: 0 });
    expect((await failure(() => runStore(c, 'ratecards:remove', { code: 'courier' }))).code).toBe(
      'not_found',
    );
    expect((await failure(() => runStore(c, 'ratecards:remove', { code: 'cdek' }))).message).toMatch(
      /switched off/,
    );
  });
});
