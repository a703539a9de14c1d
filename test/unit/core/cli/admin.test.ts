// runAdmin in-process: argument handling, output shapes, exit codes. The child-process tests live in
// test/integration/admin.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAdmin, USAGE } from '../../../../core/cli/admin';
import { digestKey, generateKey } from '../../../../core/keys/format';
import { openStore } from '../../../../core/store';
import { TestClock, tempDir } from '../../../helpers/store-fixtures';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function run(dir: string, argv: string[], stdin = ''): Promise<Run> {
  const out = sink();
  const err = sink();
  const code = await runAdmin(['--data-dir', dir, ...argv], {
    stdout: out.stream,
    stderr: err.stream,
    stdin: Readable.from([Buffer.from(stdin)]),
    env: {},
    clock: new TestClock(),
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

async function json<T>(dir: string, argv: string[], stdin = ''): Promise<T> {
  const r = await run(dir, ['--json', ...argv], stdin);
  expect(r.stderr.replace(/^warning: .*\n/, '')).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}

describe('runAdmin carriers (#10)', () => {
  it('lists carriers, sets endpoint, timeout and account, reads the secret from stdin only', async () => {
    const dir = tempDir();
    const listed = await run(dir, ['carriers', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /\ncdek +СДЭК +on +production +https:\/\/api\.cdek\.ru\/v2 +default \(5000 ms\)/,
    );
    const set = await json<{ endpoint: string; base_url: string; timeout_ms: number }>(dir, [
      'carriers',
      'set',
      'cdek',
      '--endpoint',
      'test',
      '--timeout-ms',
      '3000',
      '--client-id',
      'acme',
    ]);
    expect(set).toMatchObject({ endpoint: 'test', base_url: 'https://api.edu.cdek.ru/v2', timeout_ms: 3000 });
    const secret = await json<{ credentials: { configured: boolean; client_secret_masked: string } }>(
      dir,
      ['carriers', 'secret', 'cdek'],
      'Very-Secret-4321\n',
    );
    expect(secret.credentials).toMatchObject({ configured: true, client_secret_masked: '••••4321' });
    const off = await run(dir, ['carriers', 'set', 'russian-post', '--enabled', 'off']);
    expect(off.stdout).toBe('russian-post: off, production (https://tariff.pochta.ru), timeout default.\n');
  });

  it('refuses what cannot be, with one line and exit codes 1 (the operation) or 2 (the command line)', async () => {
    const dir = tempDir();
    const noTest = await run(dir, ['carriers', 'set', 'russian-post', '--endpoint', 'test']);
    expect(noTest).toMatchObject({ code: 1, stdout: '' });
    expect(noTest.stderr).toMatch(/^error: Почта России has no test host/);
    expect((await run(dir, ['carriers', 'set', 'cdek'])).code).toBe(2);
    expect((await run(dir, ['carriers', 'set', 'cdek', '--enabled', 'yes'])).code).toBe(2);
    expect((await run(dir, ['carriers', 'set', 'dhl', '--enabled', 'on'])).code).toBe(1);
  });
});

describe('runAdmin', () => {
  it('prints help with exit 0', async () => {
    const dir = tempDir();
    for (const argv of [['help'], ['--help'], ['-h'], ['keys', 'create', '--help']]) {
      const r = await run(dir, argv);
      expect(r).toEqual({ code: 0, stdout: USAGE, stderr: '' });
    }
  });

  it.each([
    [[], 'no command'],
    [['bogus'], 'unknown command "bogus"'],
    [['accounts', 'explode'], 'unknown command "accounts explode"'],
    [['accounts', 'create'], 'wrong number of arguments'],
    [['accounts', 'create', 'a', 'b'], 'wrong number of arguments'],
    [['accounts', 'list', '--rps', '3'], '--rps does not apply here'],
    [['accounts', 'topup', 'default'], '--requests is required'],
    [['accounts', 'topup', 'default', '--requests', 'ten'], '--requests must be a number'],
    [['accounts', 'limits', 'default', '--rps', '3'], 'give both --rps and --burst'],
    [['accounts', 'limits', 'default', '--clear', '--rps', '3'], '--clear cannot be combined'],
    [['keys', 'create', '--account', 'default'], '--name is required'],
    [
      ['keys', 'create', '--account', 'default', '--name', 'n', '--secret', 'rdk_x'],
      "Unknown option '--secret'",
    ],
    [['settings', 'set', 'carriers.cdek.client_secret', 'hunter2hunter2'], 'is a secret'],
    [['--unknown'], "Unknown option '--unknown'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await run(tempDir(), argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('reports mistakes the core finds with exit 1 and one stderr line', async () => {
    const dir = tempDir();
    for (const argv of [
      ['accounts', 'topup', 'ghost', '--requests', '5'],
      ['accounts', 'topup', 'default', '--requests', '0'],
      ['accounts', 'create', 'default'],
      ['accounts', 'threshold', 'default', '250'],
      ['keys', 'revoke', 'key_AAAAAAAAAAAA'],
      ['settings', 'set', 'listener.port', '99999'],
    ]) {
      const r = await run(dir, ['--json', ...argv]);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: [^\n]+\n$/);
    }
  });

  it('manages accounts, with tables by default and JSON on request', async () => {
    const dir = tempDir();
    const text = await run(dir, ['accounts', 'list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^NAME +TIER +BALANCE/);
    expect(text.stdout).toMatch(
      /\ndefault +free +100 +2 +5 +tier +auto +- / /* #9: default threshold auto */,
    );

    await json(dir, ['accounts', 'create', 'shop', '--balance', '0']);
    expect(await json(dir, ['accounts', 'topup', 'shop', '--requests', '1000'])).toMatchObject({
      balance: 1000,
      tier: 'paid',
    });
    expect(await json(dir, ['accounts', 'limits', 'shop', '--rps', '0.5', '--burst', '2'])).toMatchObject({
      limits: { rps: 0.5, burst: 2, source: 'override' },
    });
    expect(await json(dir, ['accounts', 'limits', 'shop', '--clear'])).toMatchObject({
      limits: { rps: 10, burst: 20, source: 'tier' },
    });
    expect(await json(dir, ['accounts', 'threshold', 'shop', 'auto'])).toMatchObject({ threshold: 'auto' });
    const negative = await run(dir, ['accounts', 'create', 'neg', '--balance=-1']);
    expect(negative.code).toBe(1);
  });

  it('shows a created secret once, with a warning, and never again', async () => {
    const dir = tempDir();
    const r = await run(dir, ['keys', 'create', '--account', 'default', '--name', 'prod']);
    expect(r.code).toBe(0);
    const secret = /rdk_[0-9A-Za-z]+/.exec(r.stdout)![0];
    expect(r.stdout).toContain('will not be shown again');

    const created = await json<{ id: string; secret: string }>(dir, [
      'keys',
      'create',
      '--account',
      'default',
      '--name',
      'ci',
    ]);
    expect(created.secret).toMatch(/^rdk_/);

    for (const argv of [
      ['keys', 'list'],
      ['--json', 'keys', 'list'],
      ['keys', 'export'],
      ['--json', 'keys', 'export'],
    ]) {
      const listed = await run(dir, argv);
      expect(listed.stdout).not.toContain(secret);
      expect(listed.stdout).not.toContain(created.secret);
    }
    const list = await run(dir, ['keys', 'list']);
    expect(list.stdout).toContain(`${secret.slice(0, 8)}…${secret.slice(-4)}`);
  });

  it('revokes, and says so when the key was already revoked', async () => {
    const dir = tempDir();
    const { id } = await json<{ id: string }>(dir, ['keys', 'create', '--account', 'default', '--name', 'k']);
    expect((await run(dir, ['keys', 'revoke', id])).stdout).toContain(`Revoked key ${id}`);
    expect((await run(dir, ['keys', 'revoke', id])).stdout).toContain('already revoked');
    expect(await json(dir, ['keys', 'list'])).toMatchObject([{ id, state: 'revoked' }]);
  });

  it('imports a key from stdin and from a file, and an export document from either', async () => {
    const dir = tempDir();
    const fromStdin = generateKey();
    expect(
      await json(dir, ['keys', 'import', '--account', 'default', '--name', 'stdin'], `${fromStdin}\n`),
    ).toMatchObject({ origin: 'imported', name: 'stdin' });

    const file = join(tempDir(), 'key.txt');
    const fromFile = 'partner-token-abcdefghijklmnop';
    writeFileSync(file, `${fromFile}\r\n`);
    await json(dir, ['keys', 'import', '--account', 'default', '--name', 'file', '--file', file]);

    const exported = await run(dir, ['keys', 'export']);
    const other = tempDir();
    expect(await json(other, ['keys', 'import'], exported.stdout)).toEqual({
      imported: 2,
      skipped: 0,
      accounts_created: [],
    });
    const exportFile = join(tempDir(), 'keys.json');
    writeFileSync(exportFile, exported.stdout);
    expect(await json(other, ['keys', 'import', '--file', exportFile])).toMatchObject({
      imported: 0,
      skipped: 2,
    });

    const store = openStore(join(other, 'ratedesk.db'));
    try {
      expect(await store.keys.authLookup(digestKey(fromStdin))).toBeDefined();
      expect(await store.keys.authLookup(digestKey(fromFile))).toBeDefined();
    } finally {
      await store.close();
    }
  });

  it('refuses unusable import input without echoing it', async () => {
    const dir = tempDir();
    const base = ['keys', 'import', '--account', 'default', '--name', 'k'];
    const bad = generateKey().slice(0, -1);
    const cases: Array<[string, string, number]> = [
      ['', 'stdin is empty', 1],
      ['one-key-abcdefghijklmnopqrstu\nsecond-key-abcdefghijklmnop\n', 'more than one line', 1],
      ['{"format":"something-else"}', 'not a RateDesk key export', 1],
      [`${bad}\n`, 'checksum', 1],
    ];
    for (const [stdin, message, code] of cases) {
      const r = await run(dir, base, stdin);
      expect(r.code).toBe(code);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain('abcdefghijklmnop');
      expect(r.stderr).not.toContain(bad);
    }
    const exported = (await run(dir, ['keys', 'export'])).stdout;
    const r = await run(dir, base, exported);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('do not apply to an export file');
    const missing = await run(dir, base.slice(0, 4), generateKey());
    expect(missing.code).toBe(2);
    const noFile = await run(dir, [...base, '--file', join(dir, 'nope.txt')]);
    expect(noFile).toMatchObject({ code: 1, stderr: expect.stringContaining('no such file') });
  });

  it('writes an export file with mode 0600 and reports it', async () => {
    const dir = tempDir();
    await json(dir, ['keys', 'create', '--account', 'default', '--name', 'k']);
    const file = join(tempDir(), 'export.json');
    writeFileSync(file, 'old content', { mode: 0o644 });
    const r = await json<{ file: string; keys: number }>(dir, ['keys', 'export', '--file', file]);
    expect(r).toEqual({ file, keys: 1 });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'ratedesk-keys', version: 1 });
  });

  it('reads and writes settings; a secret comes from stdin and is shown masked', async () => {
    const dir = tempDir();
    expect(await json(dir, ['settings', 'set', 'listener.port', '9000'])).toMatchObject({
      value: '9000',
      is_set: true,
    });
    expect((await run(dir, ['settings', 'get', 'listener.port'])).stdout).toBe('listener.port = 9000\n');
    const secret = 'cdek-password-0123456789';
    const set = await run(dir, ['settings', 'set', 'carriers.cdek.client_secret'], `${secret}\n`);
    expect(set).toMatchObject({ code: 0, stdout: 'carriers.cdek.client_secret = ••••6789\n' });
    const all = await run(dir, ['settings', 'get']);
    expect(all.stdout).not.toContain(secret);
    expect(all.stdout).toMatch(/carriers\.cdek\.client_secret +••••6789 +yes/);
    expect(await json(dir, ['settings', 'reset', 'listener.port'])).toMatchObject({
      value: '8787',
      is_set: false,
    });
    const unknown = await run(dir, ['settings', 'get', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Valid names: sandbox,');
  });

  it('lists notifications', async () => {
    const dir = tempDir();
    expect((await run(dir, ['notifications', 'list'])).stdout).toBe('No notifications.\n');
    expect(await json(dir, ['notifications', 'list', '--limit', '5'])).toEqual([]);
    expect((await run(dir, ['notifications', 'list', '--limit', '0'])).code).toBe(1);
  });

  it('uses RATEDESK_DATA_DIR when --data-dir is absent', async () => {
    const dir = tempDir();
    const out = sink();
    const code = await runAdmin(['--json', 'accounts', 'create', 'envacct'], {
      stdout: out.stream,
      stderr: sink().stream,
      stdin: Readable.from([]),
      env: { RATEDESK_DATA_DIR: dir },
    });
    expect(code).toBe(0);
    expect(await json(dir, ['accounts', 'list'])).toMatchObject([{ name: 'default' }, { name: 'envacct' }]);
  });
});
