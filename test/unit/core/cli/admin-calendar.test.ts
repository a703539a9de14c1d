// `npm run admin -- calendar info | import FILE` in-process on a real data folder (#21 item 3): a year's JSON
// file imported over the calendar, shown by info, refused whole when it is not a calendar, and gone again
// with `settings reset calendar.imported`.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../../../core/cli/admin';
import type { CalendarInfo } from '../../../../core/contract/operations';
import { createTestDatabase, dropTestDatabase } from '../../../helpers/postgres';
import { TestClock, tempDir } from '../../../helpers/store-fixtures';

const SERVER_KEY = randomBytes(32).toString('base64');

/** Monday to Friday from `from` to `to`. */
function weekdays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

const FIXTURE = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'calendar', '2028-test.json');

/** `where`: a data folder, or a company database URL. */
async function run(where: string, argv: string[]) {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  out.on('data', (c: Buffer) => chunks.out.push(c));
  err.on('data', (c: Buffer) => chunks.err.push(c));
  const database = where.startsWith('postgres');
  const code = await runAdmin([database ? '--database' : '--data-dir', where, ...argv], {
    stdout: out,
    stderr: err,
    stdin: Readable.from([]),
    env: database ? { RATEDESK_SERVER_KEY: SERVER_KEY } : {},
    clock: new TestClock(),
  });
  return {
    code,
    stdout: Buffer.concat(chunks.out).toString('utf8'),
    stderr: Buffer.concat(chunks.err)
      .toString('utf8')
      .replace(/^warning: .*\n/, ''),
  };
}

describe('admin calendar', () => {
  it('imports a year from a file; info shows it beside the decreed years', async () => {
    const dir = tempDir();
    const before = await run(dir, ['--json', 'calendar', 'info']);
    expect(before.code).toBe(0);
    const shipped = JSON.parse(before.stdout) as CalendarInfo;
    expect(shipped.years.map((y) => [y.year, y.status, y.working_days_total])).toEqual([
      [2025, 'decreed', 247],
      [2026, 'decreed', 247],
      [2027, 'decreed', 247],
    ]);

    const imported = await run(dir, ['calendar', 'import', FIXTURE]);
    expect(imported).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'Imported the production calendar of 2028: 249 working days, 12 days off Monday to Friday, ' +
        '1 Saturdays or Sundays worked.\nDelivery dates use it from the next quote.\n',
    });
    const again = await run(dir, ['calendar', 'import', FIXTURE]);
    expect(again.stdout).toMatch(/^Replaced the production calendar of 2028/);

    const info = await run(dir, ['calendar', 'info']);
    expect(info.stdout).toMatch(/\n2028 +imported +249 +12 +2028-05-06 +RateDesk test fixture/);
    expect(info.stdout).toMatch(
      /\n2025 +decreed +247 +15 +2025-11-01 +Постановление Правительства РФ от 04\.10\.2024 № 1335/,
    );
    expect(info.stdout).toMatch(/Any other year: Saturdays and Sundays, the Labor Code holidays/);

    // The audit log names the import (#20: every admin change is written down).
    const audit = await run(dir, ['--json', 'audit', '--action', 'calendar']);
    expect(JSON.parse(audit.stdout)).toEqual([
      expect.objectContaining({ action: 'calendar:import', target: '2028' }),
      expect.objectContaining({ action: 'calendar:import', target: '2028' }),
    ]);

    // Reset drops every import: the shipped years alone again.
    expect((await run(dir, ['settings', 'reset', 'calendar.imported'])).code).toBe(0);
    const reset = JSON.parse((await run(dir, ['--json', 'calendar', 'info'])).stdout) as CalendarInfo;
    expect(reset.years.map((y) => y.year)).toEqual([2025, 2026, 2027]);
  });

  it('overrides a shipped year', async () => {
    const dir = tempDir();
    const file = join(dir, '2026.json');
    writeFileSync(
      file,
      JSON.stringify({
        year: 2026,
        source: 'test: 2026 with 30 December off too',
        days_off: [
          '2026-01-01',
          '2026-01-02',
          '2026-01-05',
          '2026-01-06',
          '2026-01-07',
          '2026-01-08',
          '2026-01-09',
          '2026-02-23',
          '2026-03-09',
          '2026-05-01',
          '2026-05-11',
          '2026-06-12',
          '2026-11-04',
          '2026-12-30',
          '2026-12-31',
        ],
      }),
    );
    const r = await run(dir, ['--json', 'calendar', 'import', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      year: 2026,
      status: 'imported',
      overrides_shipped: true,
      working_days_total: 246,
      replaced: false,
    });
  });

  it('refuses a file that is not a calendar: one line on stderr, exit 1, nothing stored', async () => {
    const dir = tempDir();
    const write = (name: string, text: string): string => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const cases: Array<[string, RegExp]> = [
      [write('a.json', '{"year": 2028,'), /^error: .*a\.json is not JSON/],
      [
        write('b.json', JSON.stringify({ year: 2028, source: 's', days_off: ['2027-12-31'] })),
        /^error: days_off\.0: 2027-12-31 is not in 2028/,
      ],
      [
        write('c.json', JSON.stringify({ year: 2028, source: 's', days_off: ['2028-01-03'], extra: 1 })),
        /^error: .*extra/,
      ],
      [
        // The working days of March to June listed as days off: far too few working days left.
        write(
          'd.json',
          JSON.stringify({ year: 2028, source: 's', days_off: weekdays('2028-03-01', '2028-06-30') }),
        ),
        /^error: 2028 would have 1\d\d working days; a five-day week has 230–260/,
      ],
    ];
    for (const [path, message] of cases) {
      const r = await run(dir, ['calendar', 'import', path]);
      expect(r.code, path).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr, path).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const info = JSON.parse((await run(dir, ['--json', 'calendar', 'info'])).stdout) as CalendarInfo;
    expect(info.years.map((y) => y.status)).toEqual(['decreed', 'decreed', 'decreed']);
    expect((await run(dir, ['calendar', 'import'])).code).toBe(2);
  });

  describe('on a company database', () => {
    let url = '';
    afterAll(async () => {
      if (url) await dropTestDatabase(url);
    });

    it('keeps the import in the shared settings, through the store', async () => {
      url = await createTestDatabase('calendar');
      expect((await run(url, ['calendar', 'import', FIXTURE])).code).toBe(0);
      const info = JSON.parse((await run(url, ['--json', 'calendar', 'info'])).stdout) as CalendarInfo;
      expect(info.years.map((y) => [y.year, y.status])).toEqual([
        [2025, 'decreed'],
        [2026, 'decreed'],
        [2027, 'decreed'],
        [2028, 'imported'],
      ]);
      const stored = await run(url, ['--json', 'settings', 'get', 'calendar.imported']);
      expect(JSON.parse(stored.stdout)).toMatchObject({
        is_set: true,
        value: expect.stringContaining('"2028"'),
      });
    });
  });
});
