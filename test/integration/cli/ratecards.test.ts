// `npm run admin -- ratecards …` as a child process (what npm runs), against real data folders: import, list,
// remove, with their exit codes, and a bad file refused whole with every bad line on stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'core/cli/admin.ts');
const EXAMPLE = join(ROOT, 'docs/examples/ratecard-example.csv');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(dir: string, args: string[]): Promise<Result> {
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
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-ratecards-cli-'));
  dirs.push(dir);
  return dir;
}

function file(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('admin ratecards (child process)', () => {
  it('imports the example of docs/carriers.md, lists it, replaces it, removes it', async () => {
    const dir = tempDir();
    const imported = await admin(dir, [
      'ratecards',
      'import',
      '--code',
      'courier',
      '--name',
      'Курьер Плюс',
      '--file',
      EXAMPLE,
    ]);
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(imported.stdout).toBe(
      'Imported rate card courier "Курьер Плюс": 10 rows, bands up to 20 kg, volumetric divisor 5000.\n' +
        'Services: courier:courier (Курьер до двери, door); courier:pvz (До пункта выдачи, pickup_point).\n' +
        'Quotes use it from the next request.\n',
    );

    const list = await admin(dir, ['ratecards', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(
      /^CODE\s+NAME\s+ROWS\s+SERVICES\s+UP TO\s+DIVISOR\s+STATUS\s+IMPORTED$/,
    );
    expect(list.stdout).toMatch(
      /courier\s+Курьер Плюс\s+10\s+courier:courier, courier:pvz\s+20 kg\s+5000\s+unknown/,
    );

    const again = await admin(dir, [
      '--json',
      'ratecards',
      'import',
      '--code',
      'courier',
      '--name',
      'Курьер 2025',
      '--file',
      EXAMPLE,
      '--volumetric-divisor',
      '6000',
    ]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      code: 'courier',
      name: 'Курьер 2025',
      rows: 10,
      volumetric_divisor: 6000,
      replaced: true,
    });
    const json = await admin(dir, ['--json', 'ratecards', 'list']);
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((c) => c.name)).toEqual(['Курьер 2025']);

    const removed = await admin(dir, ['ratecards', 'remove', 'courier']);
    expect(removed).toMatchObject({
      code: 0,
      stdout: 'Removed rate card courier "Курьер 2025". Quotes no longer include it.\n',
    });
    expect((await admin(dir, ['ratecards', 'list'])).stdout).toBe('No rate cards.\n');
  });

  it('refuses a bad file whole: exit 1, every bad line on stderr, nothing on stdout, nothing stored', async () => {
    const dir = tempDir();
    const bad = file(
      dir,
      'bad.csv',
      [
        'from;to;max_weight_grams;price_rub;days_min;days_max;delivery_type',
        'Москва;*;1000;350;1;2;door',
        'Москва;Атлантида;1000;350;1;2;door',
        'Москва;*;5000;12,345;3;1;door',
        'Москва;1234567;5000;100;1;2;teleport',
      ].join('\n'),
    );
    const r = await admin(dir, [
      'ratecards',
      'import',
      '--code',
      'courier',
      '--name',
      'Курьер',
      '--file',
      bad,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      'error: The rate card was refused and nothing was imported: 3 bad lines.',
      'line 3: to: city "Атлантида" is not in the city table (use a postal-code prefix or *)',
      'line 4: price_rub: "12,345" is not a price in roubles with at most 2 decimals (1234.50 or 1 234,50)',
      'line 4: days_min is greater than days_max (3 > 1)',
      'line 5: to: "1234567" is not a city, a postal-code prefix of 1–6 digits or *',
      'line 5: delivery_type: "teleport" is not one of door, pickup_point, terminal, post_office, unknown',
      '',
    ]);
    expect((await admin(dir, ['ratecards', 'list'])).stdout).toBe('No rate cards.\n');
  });

  it('answers other mistakes with exit 1 (2 for usage) and one line on stderr', async () => {
    const dir = tempDir();
    const cases: Array<[string[], number, RegExp]> = [
      [
        ['ratecards', 'import', '--name', 'x', '--file', EXAMPLE],
        2,
        /^error: --code is required\. Usage: ratecards import/,
      ],
      [['ratecards', 'import', '--code', 'x', '--file', EXAMPLE], 2, /^error: --name is required/],
      [['ratecards', 'import', '--code', 'x', '--name', 'x'], 2, /^error: --file is required/],
      [
        [
          'ratecards',
          'import',
          '--code',
          'x',
          '--name',
          'x',
          '--file',
          EXAMPLE,
          '--volumetric-divisor',
          '5e3',
        ],
        2,
        /^error: --volumetric-divisor must be a whole number/,
      ],
      [['ratecards', 'remove'], 2, /^error: wrong number of arguments/],
      [['ratecards', 'list', '--code', 'x'], 2, /^error: --code does not apply here/],
      [
        ['ratecards', 'import', '--code', 'x', '--name', 'x', '--file', join(dir, 'missing.csv')],
        1,
        /^error: Cannot read .*missing\.csv: no such file/,
      ],
      [
        ['ratecards', 'import', '--code', 'Courier', '--name', 'x', '--file', EXAMPLE],
        1,
        /^error: code: code must be 1–40 lower-case/,
      ],
      [
        ['ratecards', 'import', '--code', 'cdek', '--name', 'x', '--file', EXAMPLE],
        1,
        /^error: "cdek" is the code of a built-in carrier/,
      ],
      [
        [
          'ratecards',
          'import',
          '--code',
          'x',
          '--name',
          'x',
          '--file',
          EXAMPLE,
          '--volumetric-divisor',
          '10',
        ],
        1,
        /^error: volumetric_divisor: volumetric_divisor must be at least 500/,
      ],
      [['ratecards', 'remove', 'nope'], 1, /^error: No rate card "nope"\./],
    ];
    for (const [args, code, stderr] of cases) {
      const r = await admin(dir, args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code, stdout: '' });
      expect(r.stderr).toMatch(stderr);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
