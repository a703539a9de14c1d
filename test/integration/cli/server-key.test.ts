// The server key through the real hosts (#19 item 3): `admin server-key new` makes a key file, `admin` with the
// key stores a carrier secret that the data folder then holds only sealed (its bytes searched), `serve` with
// the key opens it (a live CDEK simulator accepts only that secret), and `serve` / `admin` refuse to start
// without the key, with another key, and with a key file other users can read: exit code and message, the key
// and the secret in no output. Then rotate, check and forget through runAdmin on a real data folder.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCdekSimulator, type CdekSimulatorHandle } from '../../../core/carriers/simulators/cdek';
import { runAdmin } from '../../../core/cli/admin';
import { randomBase62 } from '../../../core/keys/base62';
import { writeSettings } from '../../../core/operations/settings';
import { newServerKeyText, readServerKeyFile } from '../../../core/settings/server-key';
import {
  KEY_CHECK_SETTING,
  MISSING_KEY_MESSAGE,
  serverSecrets,
  WRONG_KEY_MESSAGE,
} from '../../../core/settings/server-secrets';
import { openDataFolder } from '../../../core/store/data-folder';
import { describeHits, REPO_ROOT, SecretRegistry, spawnServe } from '../../helpers/secrets';
import { startServeProcess, type ServeProcess } from '../../helpers/serve-process';
import { onlyCarriers, SHIPMENT } from '../../helpers/service';

const clock = { now: () => new Date() };
const root = mkdtempSync(join(tmpdir(), 'ratedesk-server-key-it-'));
const logs = join(root, 'logs');
mkdirSync(logs);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SECRET_NAME = 'carriers.cdek.client_secret';
/** Long base62, so that the byte search can find any 16 characters of it wherever they land. */
const secret = `cdek${randomBase62(40)}`;
const registry = new SecretRegistry();
registry.add('the CDEK client secret', secret);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Every output is kept under logs/, for the byte search at the end. */
let runs = 0;
function host(
  which: 'admin' | 'serve',
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Run {
  // No key reaches a child from this process's environment unless a test gives one.
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const k of ['RATEDESK_SERVER_KEY', 'RATEDESK_SERVER_KEY_FILE'])
    if (!options.env || !(k in options.env)) delete env[k];
  const r = spawnSync(process.execPath, ['--import', 'tsx', `core/cli/${which}.ts`, ...args], {
    cwd: REPO_ROOT,
    env,
    input: options.input ?? '',
    encoding: 'utf8',
    // serve exits at once when it refuses; one that wrongly starts is stopped here and fails the test.
    timeout: 60_000,
  });
  const n = runs++;
  for (const [stream, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    writeFileSync(join(logs, `${n}-${which}.${stream}.log`), text);
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const data = join(root, 'data');
const keyFile = join(root, 'server.key');
const otherKeyFile = join(root, 'other.key');
let sim: CdekSimulatorHandle;
let keyText = '';

beforeAll(async () => {
  sim = await startCdekSimulator({ clientId: 'acme-shop', clientSecret: secret });
  // Everything that is not a secret goes in beforehand: live mode, CDEK alone, at the simulator.
  const store = openDataFolder(data, { clock });
  await writeSettings(
    store,
    clock,
    Object.entries({
      ...onlyCarriers('cdek'),
      sandbox: 'off',
      'carriers.cdek.endpoint': 'custom',
      'carriers.cdek.base_url': sim.url,
      'carriers.cdek.client_id': 'acme-shop',
    }).map(([name, value]) => ({ name, value })),
  );
  await store.close();
}, 60_000);
afterAll(async () => sim?.close());

describe('serve and admin with the server key, as processes', () => {
  it('admin server-key new writes a 0600 file of base64 of 32 bytes, and never overwrites one', () => {
    const r = host('admin', ['server-key', 'new', '--file', keyFile]);
    expect(r.status).toBe(0);
    keyText = readFileSync(keyFile, 'utf8');
    expect(keyText).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(Buffer.from(keyText.trim(), 'base64')).toHaveLength(32);
    if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(r.stdout).not.toContain(keyText.trim());

    const again = host('admin', ['server-key', 'new', '--file', keyFile]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists: a key file is never overwritten/);
    expect(readFileSync(keyFile, 'utf8')).toBe(keyText);

    expect(host('admin', ['server-key', 'new', '--file', otherKeyFile]).status).toBe(0);
  }, 60_000);

  it('admin with the key stores the carrier secret sealed: the data folder holds no plain text of it', () => {
    const r = host(
      'admin',
      ['--data-dir', data, '--server-key-file', keyFile, '--json', 'carriers', 'secret', 'cdek'],
      { input: `${secret}\n` },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).credentials).toMatchObject({ configured: true, client_id: 'acme-shop' });

    const report = registry.searchPaths([data]);
    expect(report.files).toBeGreaterThanOrEqual(1);
    expect(report.hits, describeHits(report.hits)).toEqual([]);
    // What is there instead: the sealed form and the key's check value, read through a plain handle.
    const file = openDataFolder(data, { clock });
    try {
      const rows = file.db.prepare('SELECT name, value FROM settings').all() as Array<{
        name: string;
        value: string;
      }>;
      const byName = new Map(rows.map((x) => [x.name, x.value]));
      expect(byName.get(SECRET_NAME)).toMatch(/^srv1:[A-Za-z0-9+/]+=*$/);
      expect(byName.get(KEY_CHECK_SETTING)).toMatch(/^check1:/);
      expect(rows.some((x) => x.value.includes(keyText.trim()))).toBe(false);
    } finally {
      void file.close();
    }
  }, 60_000);

  it('serve with the key opens it: the CDEK simulator, which knows only that secret, quotes', async () => {
    let s: ServeProcess | undefined;
    const copy = join(root, 'serve-copy');
    // startServeProcess removes its folder when closed: it gets a copy of the data folder.
    mkdirSync(copy, { mode: 0o700 });
    for (const f of ['ratedesk.db', 'ratedesk.db-wal']) {
      try {
        copyFileSync(join(data, f), join(copy, f));
      } catch {
        // no -wal after a clean close
      }
    }
    try {
      s = await startServeProcess({ RATEDESK_SERVER_KEY_FILE: keyFile }, { dir: copy });
      const tokensBefore = sim.tokenRequests();
      const res = await fetch(`http://127.0.0.1:${s.port}/v1/rates`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(SHIPMENT),
      });
      const body = (await res.json()) as { rates?: Array<{ carrier: string }>; unavailable?: unknown };
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.rates!.length).toBeGreaterThan(0);
      expect(body.rates!.every((x) => x.carrier === 'cdek')).toBe(true);
      expect(sim.tokenRequests()).toBeGreaterThan(tokensBefore);
      expect(s.stderr.join('\n')).toContain('"sealed":"with the server key"');
    } finally {
      const stderr = s?.stderr.join('\n') ?? '';
      writeFileSync(join(logs, 'serve-with-key.stderr.log'), stderr);
      await s?.close();
    }
  }, 90_000);

  it('serve refuses to start without the key, with another key, and with a key file open to others', () => {
    const noKey = host('serve', ['--data-dir', data, '--port', '0']);
    expect(noKey.status).toBe(1);
    expect(noKey.stdout).toBe('');
    expect(noKey.stderr).toContain(`ratedesk serve: ${MISSING_KEY_MESSAGE}`);
    expect(noKey.stderr).toMatch(/--server-key-file FILE.*RATEDESK_SERVER_KEY_FILE.*RATEDESK_SERVER_KEY/);

    const wrong = host('serve', ['--data-dir', data, '--port', '0', '--server-key-file', otherKeyFile]);
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr.toLowerCase()).toContain(
      'the server key does not open the stored secrets (it is not the key they were sealed with)',
    );
    expect(wrong.stderr).toContain(WRONG_KEY_MESSAGE);

    const wrongByValue = host('serve', ['--data-dir', data, '--port', '0'], {
      env: { RATEDESK_SERVER_KEY: readFileSync(otherKeyFile, 'utf8').trim() },
    });
    expect(wrongByValue.status).toBe(1);
    expect(wrongByValue.stderr).toContain(WRONG_KEY_MESSAGE);

    const exposed = join(root, 'exposed.key');
    copyFileSync(keyFile, exposed);
    chmodSync(exposed, 0o644);
    if (process.platform !== 'win32') {
      const open = host('serve', ['--data-dir', data, '--port', '0'], {
        env: { RATEDESK_SERVER_KEY_FILE: exposed },
      });
      expect(open.status).toBe(1);
      expect(open.stderr).toContain(`is open to other users (mode 0644)`);
      expect(open.stderr).toContain(`chmod 600 ${exposed}`);
    }

    const short = host('serve', ['--data-dir', data, '--port', '0'], {
      env: { RATEDESK_SERVER_KEY: Buffer.alloc(16, 7).toString('base64') },
    });
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('RATEDESK_SERVER_KEY holds 16 bytes; a server key is 32 random bytes');
  }, 180_000);

  it('admin refuses the same way, and runs with the key given by value in the environment', () => {
    const noKey = host('admin', ['--data-dir', data, 'accounts', 'list']);
    expect(noKey.status).toBe(1);
    expect(noKey.stderr).toBe(`error: ${MISSING_KEY_MESSAGE}\n`);
    const wrong = host('admin', ['--data-dir', data, '--server-key-file', otherKeyFile, 'carriers', 'list']);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe(`error: ${WRONG_KEY_MESSAGE}\n`);
    const byValue = host('admin', ['--data-dir', data, '--json', 'carriers', 'list'], {
      env: { RATEDESK_SERVER_KEY: keyText.trim() },
    });
    expect(byValue.status).toBe(0);
    const cdek = (JSON.parse(byValue.stdout) as Array<{ code: string; credentials: unknown }>).find(
      (c) => c.code === 'cdek',
    );
    expect(cdek?.credentials).toMatchObject({ configured: true });
  }, 120_000);

  it('a plain secret left by an earlier version is sealed when serve starts with the key: gone from every file', async () => {
    const dir = mkdtempSync(join(root, 'legacy-'));
    const legacy = `dpd${randomBase62(40)}`;
    registry.add('a secret stored as plain text before the key', legacy);
    const store = openDataFolder(dir, { clock });
    await writeSettings(store, clock, [{ name: 'carriers.dpd.client_key', value: legacy }]);
    await store.close();
    const before = new SecretRegistry();
    before.add('legacy', legacy);
    expect(before.searchPaths([dir]).hits.length).toBeGreaterThan(0);

    const s = await startServeProcess({ RATEDESK_SERVER_KEY_FILE: keyFile }, { dir });
    try {
      // Started: the secret was sealed, and neither the main file nor the WAL keeps the old page.
      const running = before.searchPaths([dir]);
      expect(running.hits, describeHits(running.hits)).toEqual([]);
      expect(s.stderr.join('\n')).toContain('sealed carrier secrets left as plain text {"count":1}');
      const exited = new Promise((r) => s.proc.once('exit', r));
      s.proc.kill('SIGTERM');
      await exited;
      const stopped = before.searchPaths([dir]);
      expect(stopped.hits, describeHits(stopped.hits)).toEqual([]);
      expect(await readWith(dir, keyFile, 'carriers.dpd.client_key')).toBe(legacy);
    } finally {
      writeFileSync(join(logs, 'serve-legacy.stderr.log'), s.stderr.join('\n'));
      await s.close();
    }
  }, 90_000);

  it('a key given by value is gone from the environment serve runs with: a diagnostic report does not show it', async () => {
    const reports = join(root, 'reports');
    mkdirSync(reports);
    const value = readFileSync(otherKeyFile, 'utf8').trim();
    const s = await spawnServe({
      dataDir: mkdtempSync(join(root, 'by-value-')),
      logDir: logs,
      label: 'serve-by-value',
      reportDir: reports,
      env: { RATEDESK_SERVER_KEY: value },
    });
    try {
      s.proc.kill('SIGUSR2');
      const deadline = Date.now() + 20_000;
      while (readdirSync(reports).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const [file] = readdirSync(reports);
      expect(file).toBeDefined();
      // Complete once it parses.
      let report: { environmentVariables?: Record<string, string> } | undefined;
      while (!report && Date.now() < deadline) {
        try {
          report = JSON.parse(readFileSync(join(reports, file!), 'utf8')) as typeof report;
        } catch {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(report?.environmentVariables?.PATH).toBeDefined();
      expect(report?.environmentVariables).not.toHaveProperty('RATEDESK_SERVER_KEY');
      expect(readFileSync(join(reports, file!), 'utf8')).not.toContain(value);
    } finally {
      s.proc.kill('SIGTERM');
      await s.exited;
    }
  }, 60_000);

  it('no output of any run, and no file, holds the secret or the key', () => {
    const report = registry.searchPaths([data, logs]);
    expect(report.files).toBeGreaterThan(10);
    expect(report.hits, describeHits(report.hits)).toEqual([]);
    for (const text of [keyText, readFileSync(otherKeyFile, 'utf8')]) {
      const b64 = text.trim();
      for (const f of readdirSync(logs))
        expect(readFileSync(join(logs, f), 'utf8').includes(b64), f).toBe(false);
    }
  });
});

// ---- rotate, check, forget: runAdmin in process, on a real data folder ---------------------------------------

async function admin(
  dir: string,
  argv: string[],
  options: { key?: string; stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const sink = () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const out = sink();
  const err = sink();
  const code = await runAdmin(['--data-dir', dir, ...argv], {
    stdout: out.stream,
    stderr: err.stream,
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    env: options.key ? { RATEDESK_SERVER_KEY_FILE: options.key } : {},
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

function newKeyFile(name: string): string {
  const path = join(root, name);
  writeFileSync(path, newServerKeyText(), { mode: 0o600 });
  return path;
}

/** The value a store opened with the key in `keyPath` reads for `name`. */
async function readWith(dir: string, keyPath: string | undefined, name: string): Promise<string | undefined> {
  const store = openDataFolder(dir, {
    clock,
    open: { secrets: serverSecrets(keyPath ? readServerKeyFile(keyPath) : undefined) },
  });
  try {
    return await store.settings.get(name);
  } finally {
    await store.close();
  }
}

describe('admin server-key check | rotate | forget', () => {
  const A = newKeyFile('a.key');
  const B = newKeyFile('b.key');
  const DELLIN = 'carriers.dellin.appkey';

  async function twoSecrets(): Promise<string> {
    const dir = mkdtempSync(join(root, 'rotate-'));
    expect((await admin(dir, ['carriers', 'secret', 'cdek'], { key: A, stdin: 'first-secret\n' })).code).toBe(
      0,
    );
    expect((await admin(dir, ['settings', 'set', DELLIN], { key: A, stdin: 'second-secret\n' })).code).toBe(
      0,
    );
    return dir;
  }

  it('check: the key given opens every stored secret, or says it does not', async () => {
    const dir = await twoSecrets();
    const ok = await admin(dir, ['server-key', 'check'], { key: A });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toBe(
      `The server key opens the stored secrets: 2 of 2 open.\n  ${SECRET_NAME}: server key\n  ${DELLIN}: server key\n`,
    );
    expect(await admin(dir, ['server-key', 'check'], { key: B })).toMatchObject({
      code: 1,
      stderr: `error: ${WRONG_KEY_MESSAGE}\n`,
    });
    const noKey = await admin(dir, ['server-key', 'check']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^error: server-key check needs the key to check: give --server-key-file/);
  });

  it('rotate: reseals every secret with the new key in one write; the old key is refused after', async () => {
    const dir = await twoSecrets();
    const r = await admin(dir, ['--json', 'server-key', 'rotate', '--new-key-file', B], { key: A });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ resealed: [SECRET_NAME, DELLIN] });
    expect(await readWith(dir, B, SECRET_NAME)).toBe('first-secret');
    expect(await readWith(dir, B, DELLIN)).toBe('second-secret');
    expect(await admin(dir, ['server-key', 'check'], { key: B })).toMatchObject({ code: 0 });
    expect(await admin(dir, ['accounts', 'list'], { key: A })).toMatchObject({
      code: 1,
      stderr: `error: ${WRONG_KEY_MESSAGE}\n`,
    });
    // The same key twice, and no current key, are refused.
    const same = await admin(dir, ['server-key', 'rotate', '--new-key-file', B], { key: B });
    expect(same).toMatchObject({
      code: 1,
      stderr: 'error: The new key is the current key: nothing to rotate.\n',
    });
    const none = await admin(dir, ['server-key', 'rotate', '--new-key-file', A]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^error: server-key rotate needs the current key as well: give --server-key-file/,
    );
  });

  it('rotate refuses, changing nothing, while a secret does not open with the current key', async () => {
    const dir = await twoSecrets();
    // A value the desktop's keychain sealed: no server key opens it.
    const store = openDataFolder(dir, {
      clock,
      open: { secrets: { encrypting: false, seal: (p) => p, open: (v) => v } },
    });
    await store.settings.write(
      [{ name: 'carriers.pek.api_key', value: 'enc:AAECAwQ=' }],
      clock.now().toISOString(),
    );
    await store.close();
    const r = await admin(dir, ['server-key', 'rotate', '--new-key-file', B], { key: A });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('carriers.pek.api_key (keychain)');
    expect(r.stderr).toContain('Nothing was changed.');
    expect(await readWith(dir, A, SECRET_NAME)).toBe('first-secret');
    expect(await admin(dir, ['server-key', 'check'], { key: A })).toMatchObject({ code: 1 });
  });

  it('forget: for a lost key, clears what it sealed and its check value; refused with the right key', async () => {
    const dir = await twoSecrets();
    const refused = await admin(dir, ['server-key', 'forget'], { key: A });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/it is not lost/);
    expect(await readWith(dir, A, SECRET_NAME)).toBe('first-secret');

    const r = await admin(dir, ['--json', 'server-key', 'forget']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ cleared: [SECRET_NAME, DELLIN] });
    // Nothing needs a key any more; the next key given is taken.
    expect((await admin(dir, ['accounts', 'list'])).code).toBe(0);
    expect(await readWith(dir, undefined, SECRET_NAME)).toBeUndefined();
    expect((await admin(dir, ['carriers', 'secret', 'cdek'], { key: B, stdin: 'new-one\n' })).code).toBe(0);
    expect(await readWith(dir, B, SECRET_NAME)).toBe('new-one');
  });
});
