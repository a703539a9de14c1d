// The real `admin` CLI as a child process (what `npm run admin` runs), against real data folders.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { digestKey, generateKey } from '../../../core/keys/format';
import { openStore } from '../../../core/store';

const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'core/cli/admin.ts');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: options.env ?? { ...process.env, RATEDESK_DATA_DIR: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
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
    child.stdin.end(options.input ?? '');
  });
}

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-admin-cli-'));
  dirs.push(dir);
  return dir;
}

/** Runs one command with --json in `dir` and parses the single JSON document it prints. */
async function json<T = unknown>(dir: string, args: string[], input?: string): Promise<T> {
  const r = await admin(['--data-dir', dir, '--json', ...args], { input });
  if (r.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

interface Account {
  name: string;
  tier: string;
  balance: number;
  limits: { rps: number; burst: number; source: string };
  threshold: string;
}

describe('admin CLI (child process)', () => {
  it('creates and migrates a fresh data folder with the default account of 100 requests', async () => {
    const dir = join(tempDir(), 'new', 'folder');
    const accounts = await json<Account[]>(dir, ['accounts', 'list']);
    expect(accounts).toMatchObject([
      {
        name: 'default',
        tier: 'free',
        balance: 100,
        limits: { rps: 2, burst: 5, source: 'tier' },
        threshold: 'auto', // #9: a fresh account is not "low" on day one
      },
    ]);
    expect(existsSync(join(dir, 'ratedesk.db'))).toBe(true);
  });

  it('takes the data folder from RATEDESK_DATA_DIR', async () => {
    const dir = tempDir();
    const r = await admin(['--json', 'accounts', 'list'], {
      env: { ...process.env, RATEDESK_DATA_DIR: dir },
    });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'ratedesk.db'))).toBe(true);
  });

  it('creates, tops up, limits and sets the threshold of an account', async () => {
    const dir = tempDir();
    await json(dir, ['accounts', 'create', 'shop', '--balance', '10']);
    await json(dir, ['accounts', 'topup', 'shop', '--requests', '500']);
    await json(dir, ['accounts', 'limits', 'shop', '--rps', '3', '--burst', '6']);
    await json(dir, ['accounts', 'threshold', 'shop', 'auto']);
    const shop = (await json<Account[]>(dir, ['accounts', 'list'])).find((a) => a.name === 'shop');
    expect(shop).toMatchObject({
      tier: 'paid',
      balance: 510,
      limits: { rps: 3, burst: 6, source: 'override' },
      threshold: 'auto',
    });
    await json(dir, ['accounts', 'limits', 'shop', '--clear']);
    expect((await json<Account[]>(dir, ['accounts', 'list']))[1]!.limits).toEqual({
      rps: 10,
      burst: 20,
      source: 'tier',
    });
  });

  it('prints a created secret once; keys list never contains it', async () => {
    const dir = tempDir();
    const created = await admin([
      '--data-dir',
      dir,
      '--json',
      'keys',
      'create',
      '--account',
      'default',
      '--name',
      'prod',
    ]);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; secret: string };
    expect(key.id).toMatch(/^key_/);
    expect(key.secret).toMatch(/^rdk_/);
    expect(created.stderr).toContain('will not be shown again');
    expect(created.stderr).not.toContain(key.secret);

    for (const args of [
      ['keys', 'list'],
      ['--json', 'keys', 'list'],
      ['keys', 'export'],
    ]) {
      const r = await admin(['--data-dir', dir, ...args]);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(key.secret);
    }
    expect((await json<Array<{ id: string; state: string }>>(dir, ['keys', 'list']))[0]).toMatchObject({
      id: key.id,
      state: 'active',
    });
  });

  it('imports a key from stdin and from a file', async () => {
    const dir = tempDir();
    const piped = generateKey();
    const fromFile = 'partner-issued-token-0123456789';
    const keyFile = join(tempDir(), 'secret.txt');
    writeFileSync(keyFile, `${fromFile}\n`, { mode: 0o600 });

    await json(dir, ['keys', 'import', '--account', 'default', '--name', 'piped'], `${piped}\n`);
    await json(dir, ['keys', 'import', '--account', 'default', '--name', 'file', '--file', keyFile]);
    const again = await admin(['--data-dir', dir, 'keys', 'import', '--account', 'default', '--name', 'x'], {
      input: piped,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: This key is already stored as key_/);

    const store = openStore(join(dir, 'ratedesk.db'));
    try {
      expect((await store.keys.authLookup(digestKey(piped)))?.revoked_at).toBeNull();
      expect((await store.keys.authLookup(digestKey(fromFile)))?.revoked_at).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('exports from one folder and imports into another: keys from machine A authenticate on B', async () => {
    const a = tempDir();
    const b = tempDir();
    await json(a, ['accounts', 'create', 'shop']);
    const { secret } = await json<{ secret: string }>(a, [
      'keys',
      'create',
      '--account',
      'shop',
      '--name',
      'live',
    ]);
    const file = join(tempDir(), 'keys.json');
    const written = await json<{ keys: number }>(a, ['keys', 'export', '--file', file]);
    expect(written.keys).toBe(1);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(secret);

    expect(await json(b, ['keys', 'import', '--file', file])).toEqual({
      imported: 1,
      skipped: 0,
      accounts_created: ['shop'],
    });
    const store = openStore(join(b, 'ratedesk.db'));
    try {
      const auth = await store.keys.authLookup(digestKey(secret));
      expect(auth).toMatchObject({ revoked_at: null, balance: 0 });
    } finally {
      await store.close();
    }
  });

  it('answers mistakes with exit 1 (2 for usage) and one line on stderr', async () => {
    const dir = tempDir();
    const cases: Array<[string[], number, string]> = [
      [['accounts', 'topup', 'ghost', '--requests', '5'], 1, 'No account named "ghost"'],
      [['accounts', 'limits', 'default', '--rps', '0', '--burst', '5'], 1, 'rps'],
      [['keys', 'revoke', 'key_AAAAAAAAAAAA'], 1, 'No key with id'],
      [['accounts', 'frobnicate'], 2, 'unknown command'],
      [['keys', 'create', '--secret', 'x'], 2, "Unknown option '--secret'"],
    ];
    for (const [args, code, message] of cases) {
      const r = await admin(['--data-dir', dir, '--json', ...args]);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: [^\n]+\n$/);
      expect(r.stderr).toContain(message);
    }
  });

  it('writes beside a process holding the same data file open, and that process sees it at once', async () => {
    const dir = tempDir();
    await json(dir, ['accounts', 'list']);
    const server = openStore(join(dir, 'ratedesk.db'));
    try {
      const before = (await server.accounts.byName('default'))!.balance;
      await json(dir, ['accounts', 'topup', 'default', '--requests', '50']);
      expect((await server.accounts.byName('default'))!.balance).toBe(before + 50);
      const { secret } = await json<{ secret: string }>(dir, [
        'keys',
        'create',
        '--account',
        'default',
        '--name',
        'k',
      ]);
      expect(await server.keys.authLookup(digestKey(secret))).toBeDefined();
    } finally {
      await server.close();
    }
  });

  it('leaves no full secret in the bytes of ratedesk.db, -wal or -shm after creating 20 keys', async () => {
    const dir = tempDir();
    await json(dir, ['accounts', 'list']);
    // An open connection (as a running server would hold) keeps the -wal file from being checkpointed away.
    const server = openStore(join(dir, 'ratedesk.db'));
    const secrets: string[] = [];
    try {
      for (let batch = 0; batch < 4; batch++) {
        const created = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            json<{ secret: string }>(dir, [
              'keys',
              'create',
              '--account',
              'default',
              '--name',
              `k${batch * 5 + i}`,
            ]),
          ),
        );
        secrets.push(...created.map((c) => c.secret));
      }
      expect(new Set(secrets).size).toBe(20);
      expect(await server.keys.list()).toHaveLength(20);
      const files = ['ratedesk.db', 'ratedesk.db-wal', 'ratedesk.db-shm'].map((f) => join(dir, f));
      expect(existsSync(files[1]!)).toBe(true);
      assertNoSecrets(files, secrets);
    } finally {
      await server.close();
    }
    // And after the last connection has checkpointed the WAL into the main file.
    assertNoSecrets(
      ['ratedesk.db', 'ratedesk.db-wal', 'ratedesk.db-shm'].map((f) => join(dir, f)),
      secrets,
    );
  }, 60_000);
});

describe('admin carriers check (child process)', () => {
  it('passes in sandbox mode, a step per line, and prints one JSON report with --json', async () => {
    const dir = tempDir();
    const text = await admin(['--data-dir', dir, 'carriers', 'check', 'cdek']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^СДЭК \(cdek\) at the built-in simulator \(sandbox mode\):$/m);
    expect(text.stdout).toMatch(/^ {2}ok {3}auth /m);
    expect(text.stdout).toMatch(/^ {2}ok {3}route .*Москва.* → Казань.* ms .*rates, from [\d.]+ RUB/m);
    expect(text.stdout).toMatch(/^Passed: 4 steps in \d+ ms\.$/m);
    const report = await json<{ ok: boolean; steps: Array<{ kind: string; status: string }> }>(dir, [
      'carriers',
      'check',
      'cdek',
    ]);
    expect(report.ok).toBe(true);
    expect(report.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
  }, 60_000);

  it('fails against a dead host with exit 1, the failing step, the carrier-side reason and what to look at', async () => {
    const dir = tempDir();
    await json(dir, ['settings', 'set', 'sandbox', 'off']);
    await json(dir, ['carriers', 'set', 'russian-post', '--base-url', 'http://127.0.0.1:9']);
    const r = await admin([
      '--data-dir',
      dir,
      'carriers',
      'check',
      'russian-post',
      '--step-timeout-ms',
      '5000',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^Почта России \(russian-post\) at http:\/\/127\.0\.0\.1:9 \(endpoint custom\):$/m,
    );
    expect(r.stdout).toMatch(/^ {2}FAIL route .*connection refused/m);
    expect(r.stdout).toMatch(/^ {7}what to look at: .+/m);
    expect(r.stdout).toMatch(/^FAILED at route \(.+\) after \d+ ms\.$/m);
  }, 60_000);

  it('refuses an unknown carrier (usage: exit 2) and an endpoint there is none of (invalid: exit 1)', async () => {
    const dir = tempDir();
    const unknown = await admin(['--data-dir', dir, 'carriers', 'check', 'ups']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: no carrier "ups"\. Known: cdek, russian-post, .*5post\.\n$/);
    const endpoint = await admin(['--data-dir', dir, 'carriers', 'check', 'cdek', '--endpoint', 'moon']);
    expect(endpoint.code).toBe(1);
    expect(endpoint.stderr).toMatch(/^error: endpoint: /);
  }, 60_000);
});

function assertNoSecrets(files: string[], secrets: string[]): void {
  for (const file of files) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (const secret of secrets) {
      expect(bytes.includes(secret), `${file} holds a full key`).toBe(false);
      // The random part alone, in case something stored the key without its prefix.
      expect(bytes.includes(secret.slice(4)), `${file} holds a key body`).toBe(false);
    }
  }
}
