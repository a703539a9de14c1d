// `npm run admin -- quote-file IN --out OUT` (#21 item 6) as a child process on a real data folder with the
// sandbox carriers: the rows quoted into a CSV or XLSX file, progress on stderr, a bad row listed by its number
// with exit 1, exit 0 when every row got a rate, and the pace of --account.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'core/cli/admin.ts');

function admin(
  dir: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--data-dir', dir, ...args], {
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

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-quote-file-'));
  dirs.push(dir);
  return dir;
}

const HEADER = 'Номер;Откуда;Куда;Вес, кг;Длина;Ширина;Высота';

describe('admin quote-file (child process)', () => {
  it('writes the results, lists a bad row by its number on stderr and exits 1', async () => {
    const dir = tempDir();
    const input = join(dir, 'day.csv');
    writeFileSync(
      input,
      `${HEADER}\n1;Москва;Казань;1,5;30;20;10\n2;Москва;Самара;abc;30;20;10\n3;Москва;Пермь;2;30;20;10\n`,
    );
    const out = join(dir, 'out.xlsx');
    const r = await admin(join(dir, 'data'), ['quote-file', input, '--out', out]);
    expect(r.stderr).toContain('line 3: weight_kg: "abc" is not a weight');
    expect(r.stderr).toContain('quoted 2/2');
    expect(r.stdout).toMatch(/^2 of 3 rows quoted in [\d.]+ s .*; 1 bad, 0 without a rate\. Written to /);
    expect(r.code).toBe(1);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(readFileSync(out) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(2).getCell(4).value).toBe('Казань');
    expect(typeof sheet.getRow(2).getCell(8).value).toBe('number');
    // The file speaks the UI's language (Russian by default), in the Bulk screen's words; stderr stays English.
    expect(String(sheet.getRow(3).getCell(sheet.columnCount).value)).toBe(
      '«Вес, кг»: «abc» — не вес от 1 г до 1000 кг',
    );
  }, 120_000);

  it('exits 0 when every row got a rate; --json is one document; --account paces and must exist', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const input = join(dir, 'day.csv');
    writeFileSync(input, `${HEADER}\n1;Москва;Казань;1;30;20;10\n2;Москва;Самара;2;30;20;10\n`);
    const out = join(dir, 'out.csv');
    const ok = await admin(data, ['--json', 'quote-file', input, '--out', out, '--format', 'csv']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ rows: 2, bad_rows: 0, quoted: 2, not_quoted: [] });
    expect(readFileSync(out, 'utf8').split('\r\n').filter(Boolean)).toHaveLength(3);

    const missing = await admin(data, ['quote-file', input, '--out', out, '--account', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no account named "nobody"');
    expect((await admin(data, ['accounts', 'create', 'shop'])).code).toBe(0);
    const paced = await admin(data, ['--json', 'quote-file', input, '--out', out, '--account', 'shop']);
    expect(paced.code).toBe(0);
    expect(JSON.parse(paced.stdout)).toMatchObject({ pace: { account: 'shop', rps: 2 } });
    const usage = await admin(data, ['quote-file', input]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--out is required');
  }, 180_000);
});
