// `admin ratecards import` killed (SIGKILL) halfway through a 100,000-row card (#16 item 4): the import
// commits in chunks, yet the old card stays whole and the half-written one is never visible; the rows it left
// are deleted by the next start of the service, or by the next import.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runStore } from '../../../core/operations';
import type { SqliteStore } from '../../../core/store';
import { openDataFolder } from '../../../core/store/data-folder';
import { startTestService } from '../../helpers/service';
import { openReadOnly, rateCardRowCount } from '../../helpers/data-file';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'core/cli/admin.ts');
const HEADER = 'from,to,max_weight_grams,price_rub,days_min,days_max,delivery_type';
const SMALL = `${HEADER}\n*,*,1000,350,1,2,door\n*,*,5000,490,1,2,door\n*,*,30000,900,2,4,door\n`;
const clock = { now: () => new Date() };

const dirs: string[] = [];
const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function bigCard(): string {
  const lines = [HEADER];
  for (let i = 0; i < 100_000; i++)
    lines.push(`${100 + (i % 900)},${100 + Math.floor(i / 900)},30000,500,1,3,door`);
  return `${lines.join('\n')}\n`;
}

/** Starts the CLI import of the big card and SIGKILLs it once a few chunks are on disk. */
async function killedHalfway(dir: string, file: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      CLI,
      '--data-dir',
      dir,
      'ratecards',
      'import',
      '--code',
      'card',
      '--name',
      'Big',
      '--file',
      file,
    ],
    { cwd: ROOT, stdio: 'ignore' },
  );
  procs.push(child);
  const reader = openReadOnly(dir);
  const hidden = { get: () => rateCardRowCount(reader, 'staged') };
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const staged = hidden.get();
      if (staged >= 6_000) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        return hidden.get();
      }
      if (child.exitCode !== null) throw new Error('the import finished before it could be killed');
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the import never wrote a chunk');
  } finally {
    await reader.close();
  }
}

async function cardState(dir: string): Promise<{ cards: Array<[string, string, number]>; allRows: number }> {
  const store = openDataFolder(dir);
  try {
    const cards = (await runStore({ store, clock }, 'ratecards:list', {})).map(
      (c) => [c.code, c.name, c.rows] as [string, string, number],
    );
    const allRows = rateCardRowCount(store, 'all');
    return { cards, allRows };
  } finally {
    await store.close();
  }
}

describe('a rate-card import killed halfway', () => {
  it('leaves the old card whole and no half card; the next start and the next import delete what it left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratedesk-crash-'));
    dirs.push(dir);
    const file = join(dir, 'big.csv');
    writeFileSync(file, bigCard());
    const store = openDataFolder(dir);
    await runStore({ store, clock }, 'ratecards:import', { code: 'card', name: 'Small', csv: SMALL });
    await store.close();

    // Killed: the old card, whole, is all anyone sees; the staged rows are still in the file, hidden.
    const left = await killedHalfway(dir, file);
    expect(left).toBeGreaterThanOrEqual(6_000);
    expect(await cardState(dir)).toEqual({ cards: [['card', 'Small', 3]], allRows: 3 + left });

    // The next start of the service deletes them in the background, a chunk per group commit.
    const t = await startTestService({ dir });
    const quote = await t.postRates({
      from: { city: 'Москва', postal_code: '101000' },
      to: { city: 'Казань', postal_code: '420000' },
      parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
      carriers: ['card'],
    });
    expect(quote.status).toBe(200);
    expect(quote.json.rates.map((r: { price_kopecks: number }) => r.price_kopecks)).toEqual([49_000]);
    const service = t.service.store as SqliteStore;
    const rowsNow = { get: () => rateCardRowCount(service, 'all') };
    const deadline = Date.now() + 10_000;
    while (rowsNow.get() > 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(rowsNow.get()).toBe(3);
    await t.stop();

    // Killed again; this time the next import cleans up before it writes its own rows.
    const again = await killedHalfway(dir, file);
    expect(await cardState(dir)).toEqual({ cards: [['card', 'Small', 3]], allRows: 3 + again });
    const next = openDataFolder(dir);
    await runStore({ store: next, clock }, 'ratecards:import', {
      code: 'card',
      name: 'Small v2',
      csv: SMALL,
    });
    await next.close();
    expect(await cardState(dir)).toEqual({ cards: [['card', 'Small v2', 3]], allRows: 3 });
  }, 120_000);
});
