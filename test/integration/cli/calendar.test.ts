// `npm run admin -- calendar import FILE` as a child process beside a running service on the same data folder
// (#21 item 3): the service's next quote counts over the imported year, with no restart (the store's change
// feed carries the setting across processes).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeskQuoteResult } from '../../../core/contract/operations';
import { SHIPPED_YEARS } from '../../../core/quote/calendar/data';
import { createRatingService, type RatingService } from '../../../core/service';
import { openDataFolder } from '../../../core/store/data-folder';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'core/cli/admin.ts');
/** 10:00 in Moscow, Wednesday 30 December 2026. */
const NOW = new Date('2026-12-30T07:00:00Z');
const SHIPMENT = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  carriers: ['boxberry'],
};

function admin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, RATEDESK_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', fail);
    child.on('close', (code) =>
      done({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

let dir = '';
let service: RatingService;
let n = 0;
async function quote(): Promise<DeskQuoteResult> {
  const r = await service.desk.dispatch('quote:run', { quoteKey: `q${++n}`, shipment: SHIPMENT });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as DeskQuoteResult;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-calendar-cli-'));
  const store = openDataFolder(dir);
  await store.settings.write(
    [
      { name: 'listener.enabled', value: 'off' },
      // Generous: on a loaded machine Boxberry past the default deadline would be missing from the quote.
      { name: 'rating.deadline_ms', value: '30000' },
      { name: 'rating.carrier_timeout_ms', value: '30000' },
    ],
    NOW.toISOString(),
  );
  await store.close();
  service = await createRatingService({
    dataDir: dir,
    appVersion: '9.9.9-test',
    logger: { info() {}, warn() {}, error() {} },
    clock: { now: () => NOW, monotonicMs: () => performance.now() },
  });
});
afterAll(async () => {
  await service?.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

it('a year imported by the CLI moves the running service’s next delivery dates', async () => {
  const before = (await quote()).rates;
  expect(before.length).toBeGreaterThan(0);
  // Boxberry counts working days: 30 December, then nothing until Monday 11 January 2027.
  for (const r of before)
    expect(r).toMatchObject({ carrier: 'boxberry', days_kind: 'working', ship_date: '2026-12-30' });
  const first = before[0]!;
  expect(first.days_min).toBeGreaterThan(0);

  const y2027 = SHIPPED_YEARS.find((y) => y.year === 2027)!;
  const file = join(dir, '2027.json');
  writeFileSync(
    file,
    JSON.stringify({
      year: 2027,
      source: 'integration test: 11 January 2027 off as well (not a real decree)',
      days_off: [...Object.keys(y2027.daysOff), '2027-01-11'],
      working_days: Object.keys(y2027.workingDays),
    }),
  );
  const r = await admin(['--data-dir', dir, 'calendar', 'import', file]);
  expect(r.stderr.replace(/^warning: .*\n/gm, '')).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(
    /^Imported the production calendar of 2027 \(over the shipped year\): 246 working days/,
  );

  expect(first.delivery_date_min).toBe(countWorking('2026-12-30', first.days_min!, []));
  // 11 January is now off: the next quote counts one working day more over it.
  await expect
    .poll(
      async () => (await quote()).rates.find((x) => x.service_code === first.service_code)?.delivery_date_min,
      {
        timeout: 15_000,
        interval: 300,
      },
    )
    .toBe(countWorking('2026-12-30', first.days_min!, ['2027-01-11']));
}, 60_000);

// The oracle, from decrees 1466 and 1187 written out (not the code's calendar): days off after 30 Dec 2026.
const OFF = [
  '2026-12-31',
  '2027-01-01',
  '2027-01-04',
  '2027-01-05',
  '2027-01-06',
  '2027-01-07',
  '2027-01-08',
];
function countWorking(ship: string, days: number, extra: string[]): string {
  let d = ship;
  for (let left = days; left > 0;) {
    d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    if (d > '2027-02-19') throw new Error('the oracle stops before 20 February 2027');
    const weekday = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !OFF.includes(d) && !extra.includes(d)) left--;
  }
  return d;
}
