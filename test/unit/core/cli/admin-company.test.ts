// The admin CLI's company-desk commands (#20) in-process: users, devices, warehouses, the audit log; text and
// --json output, exit codes, and the same commands on a company database (--database).
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin, USAGE } from '../../../../core/cli/admin';
import {
  digestDeviceToken,
  digestEnrolmentCode,
  generateDeviceToken,
} from '../../../../core/keys/desk-credentials';
import { openDataFolder } from '../../../../core/store/data-folder';
import { createTestDatabase, dropTestDatabase } from '../../../helpers/postgres';
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

const SERVER_KEY = randomBytes(32).toString('base64');

/** `where`: a data folder, or a company database URL. */
async function run(where: string, argv: string[]): Promise<Run> {
  const out = sink();
  const err = sink();
  const database = where.startsWith('postgres');
  const code = await runAdmin([database ? '--database' : '--data-dir', where, ...argv], {
    stdout: out.stream,
    stderr: err.stream,
    stdin: Readable.from([Buffer.from('')]),
    env: database ? { RATEDESK_SERVER_KEY: SERVER_KEY } : {},
    clock: new TestClock(),
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

async function json<T>(where: string, argv: string[]): Promise<T> {
  const r = await run(where, ['--json', ...argv]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}

const me = userInfo().username;

describe('admin users and devices (#20)', () => {
  it('adds, lists, changes, disables, enables, enrols and removes users, with text answers', async () => {
    const dir = tempDir();
    expect((await run(dir, ['users', 'list'])).stdout).toBe(
      'No users yet. Add one: users add NAME --role clerk\n',
    );
    expect(await run(dir, ['users', 'add', 'anna', '--role', 'clerk'])).toEqual({
      code: 0,
      stdout: 'Added user anna (clerk). Give them a code for their desk: users enrol anna\n',
      stderr: '',
    });
    expect((await run(dir, ['users', 'add', 'boris', '--role', 'admin'])).code).toBe(0);
    expect((await run(dir, ['users', 'set-role', 'anna', '--role', 'admin'])).stdout).toBe(
      'anna is now an admin.\n',
    );
    expect((await run(dir, ['users', 'disable', 'boris'])).stdout).toBe(
      'Disabled boris: their desks are refused from their next call.\n',
    );
    const list = (await run(dir, ['users', 'list'])).stdout.split('\n');
    expect(list[0]).toMatch(/^NAME +ROLE +STATE +DEVICES +CREATED$/);
    expect(list[1]).toMatch(/^anna +admin +active +0 +2025-03-01T10:00:00.000Z$/);
    expect(list[2]).toMatch(/^boris +admin +disabled +0 /);
    expect((await run(dir, ['users', 'enable', 'boris'])).stdout).toBe('Enabled boris.\n');

    const enrol = await run(dir, ['users', 'enrol', 'anna', '--ttl', '30']);
    expect(enrol.code).toBe(0);
    const code = /code for anna: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})\n/.exec(enrol.stdout)?.[1];
    expect(code).toBeDefined();
    expect(enrol.stdout).toContain('Valid once, until 2025-03-01T10:30:00.000Z (30 min); it replaces any');
    expect(enrol.stdout).toContain('Settings → «Сервер компании»');
    const asJson = await json<{ user: string; code: string; expires_at: string }>(dir, [
      'users',
      'enrol',
      'anna',
    ]);
    expect(asJson).toMatchObject({ user: 'anna', expires_at: '2025-03-01T10:15:00.000Z' });

    // The gateway's side of the code: a device to list and revoke.
    const store = openDataFolder(dir);
    try {
      const r = await store.users.redeemEnrolmentCode(
        digestEnrolmentCode(asJson.code),
        new Date(0).toISOString(),
        {
          id: 'dev_cli',
          token_digest: digestDeviceToken(generateDeviceToken()),
          name: 'Касса 2',
        },
      );
      expect(r.ok).toBe(true);
    } finally {
      await store.close();
    }
    const devices = (await run(dir, ['devices', 'list', '--user', 'anna'])).stdout.split('\n');
    expect(devices[0]).toMatch(/^ID +USER +NAME +ENROLLED +LAST SEEN +STATE$/);
    expect(devices[1]).toMatch(/^dev_cli +anna +Касса 2 +\S+ +- +active$/);
    expect((await run(dir, ['devices', 'revoke', 'dev_cli'])).stdout).toBe(
      'Revoked device dev_cli: its next call is refused.\n',
    );
    expect((await run(dir, ['devices', 'revoke', 'dev_cli'])).stdout).toBe(
      'Device dev_cli was already revoked.\n',
    );
    expect((await run(dir, ['users', 'remove', 'anna'])).stdout).toBe(
      'Removed anna with their devices and codes; History and the audit log keep the name.\n',
    );
    expect((await json<Array<{ name: string }>>(dir, ['users', 'list'])).map((u) => u.name)).toEqual([
      'boris',
    ]);
  });

  it('refuses with one line: exit 2 for the command line, 1 for the operation', async () => {
    const dir = tempDir();
    expect(await run(dir, ['users', 'add', 'anna'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --role clerk|admin is required. Usage: users add NAME --role clerk|admin\n',
    });
    expect((await run(dir, ['users', 'add', 'anna', '--role', 'owner'])).code).toBe(1);
    await run(dir, ['users', 'add', 'anna', '--role', 'clerk']);
    expect(await run(dir, ['users', 'add', 'ANNA', '--role', 'clerk'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: User "ANNA" already exists.\n',
    });
    expect((await run(dir, ['users', 'enrol', 'nobody'])).stderr).toBe(
      'error: No user named "nobody". See "users list".\n',
    );
    expect((await run(dir, ['users', 'enrol', 'anna', '--ttl', '5000'])).code).toBe(1);
    expect((await run(dir, ['devices', 'revoke', 'dev_nope'])).code).toBe(1);
    expect((await run(dir, ['users', 'list', '--role', 'clerk'])).code).toBe(2);
  });
});

describe('admin warehouses (#20)', () => {
  it('adds with every field, lists, updates only the fields given, removes', async () => {
    const dir = tempDir();
    const added = await run(dir, [
      'warehouses',
      'add',
      'Склад Подольск',
      '--city',
      'Подольск',
      '--postal-code',
      '142100',
      '--address',
      'ул. Правды, 20',
      '--carriers',
      'cdek,dpd',
      '--boxes',
      'Малая:20x15x10,Средняя:30x20x15',
    ]);
    expect(added).toEqual({
      code: 0,
      stdout: 'Added warehouse #1 Склад Подольск: Подольск, 142100.\n',
      stderr: '',
    });
    const lines = (await run(dir, ['warehouses', 'list'])).stdout.split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +CITY +INDEX +CARRIERS +BOXES +ADDRESS$/);
    expect(lines[1]).toMatch(
      /^1 +Склад Подольск +Подольск +142100 +cdek,dpd +Малая:20x15x10,Средняя:30x20x15 +ул\. Правды, 20$/,
    );
    const updated = await json<{
      name: string;
      postal_code: string | null;
      default_carriers: string[];
      address: string;
    }>(dir, [
      'warehouses',
      'update',
      '1',
      '--name',
      'Подольск',
      '--postal-code',
      'none',
      '--carriers',
      'none',
    ]);
    expect(updated).toMatchObject({
      name: 'Подольск',
      postal_code: null,
      default_carriers: [],
      address: 'ул. Правды, 20',
    });
    expect((await run(dir, ['warehouses', 'add', 'X'])).code).toBe(2);
    expect((await run(dir, ['warehouses', 'add', 'X', '--city', 'Y', '--boxes', 'big'])).stderr).toBe(
      'error: --boxes: "big" is not NAME:LxWxH (centimetres), e.g. Малая:20x15x10.\n',
    );
    expect((await run(dir, ['warehouses', 'add', 'X', '--city', 'Y', '--carriers', 'sdek'])).code).toBe(1);
    expect((await run(dir, ['warehouses', 'update', '7', '--city', 'Y'])).stderr).toBe(
      'error: No warehouse #7. See "warehouses list".\n',
    );
    expect((await run(dir, ['warehouses', 'remove', '1'])).stdout).toBe(
      'Removed warehouse #1 Подольск; quotes made from it keep its name.\n',
    );
    expect((await run(dir, ['warehouses', 'list'])).stdout).toBe(
      'No warehouses yet. Add one: warehouses add NAME --city CITY\n',
    );
  });
});

describe('admin audit (#20)', () => {
  it('lists what the CLI changed, named by the OS user, with filters; --csv is the export', async () => {
    const dir = tempDir();
    await run(dir, ['users', 'add', 'anna', '--role', 'clerk']);
    await run(dir, ['accounts', 'create', 'acme', '--balance', '5']);
    await run(dir, ['users', 'enrol', 'anna']);
    const all = await json<Array<{ actor_kind: string; actor: string; action: string; target: string }>>(
      dir,
      ['audit'],
    );
    expect(all.map((e) => [e.actor_kind, e.actor, e.action, e.target])).toEqual([
      ['cli', me, 'users:enrol', 'anna'],
      ['cli', me, 'accounts:create', 'acme'],
      ['cli', me, 'users:add', 'anna'],
    ]);
    const text = (await run(dir, ['audit', '--action', 'users', '--limit', '1'])).stdout.split('\n');
    expect(text[0]).toMatch(/^AT +WHO +ACTION +TARGET +DETAIL$/);
    expect(text[1]).toMatch(
      new RegExp(
        `^2025-03-01T10:00:00.000Z +cli:${me} +users:enrol +anna +expires_at: 2025-03-01T10:15:00.000Z; ttl_minutes: 15$`,
      ),
    );
    expect(text).toHaveLength(3);
    expect((await run(dir, ['audit', '--actor', 'nobody'])).stdout).toBe('No audit entries match.\n');
    const csv = await run(dir, ['audit', '--csv', '--action', 'accounts']);
    expect(csv.stdout.split('\r\n')[0]).toBe('\uFEFF"Дата";"Кто";"Откуда";"Действие";"Объект";"Подробности"');
    expect(csv.stdout.split('\r\n')[1]).toMatch(
      new RegExp(`;"${me}";"командная строка";"accounts:create";"acme";"balance: 5"$`),
    );
    expect((await run(dir, ['audit', '--csv', '--limit', '3'])).code).toBe(2);
    expect((await run(dir, ['audit', '--from', 'yesterday'])).stderr).toBe(
      'error: from: must be a date (2025-03-14) or an ISO timestamp.\n',
    );
  });

  it('is in the help text, with the users, devices and warehouses commands', () => {
    for (const line of [
      'users add NAME --role clerk|admin',
      'users enrol NAME [--ttl MINUTES]',
      'devices revoke ID',
      'warehouses add NAME --city CITY',
      'audit [--actor NAME]',
    ])
      expect(USAGE).toContain(line);
  });
});

describe('on a company database (--database)', () => {
  const databases: string[] = [];
  afterAll(async () => {
    for (const url of databases.splice(0)) await dropTestDatabase(url);
  });

  it('runs the same commands, and the audit log is the database’s', async () => {
    const url = await createTestDatabase('admin_company');
    databases.push(url);
    await json(url, ['users', 'add', 'anna', '--role', 'clerk']);
    await json(url, ['warehouses', 'add', 'Подольск', '--city', 'Подольск']);
    const code = await json<{ code: string }>(url, ['users', 'enrol', 'anna']);
    expect(code.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(
      (await json<Array<{ name: string; role: string }>>(url, ['users', 'list'])).map((u) => [
        u.name,
        u.role,
      ]),
    ).toEqual([['anna', 'clerk']]);
    const entries = await json<Array<{ action: string; actor: string }>>(url, ['audit']);
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ['users:enrol', me],
      ['warehouses:create', me],
      ['users:add', me],
    ]);
    expect(JSON.stringify(entries)).not.toContain(code.code);
  });
});
