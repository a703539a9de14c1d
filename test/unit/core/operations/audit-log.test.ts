// The audit log (#20): one table says which operations are admin changes and how each is written down; every
// host runs operations through the same two calls, so every admin change that succeeds is one entry, naming
// who made it, and no entry ever holds a secret. On both stores.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_ROLES, type OperationName } from '../../../../core/contract/operations';
import { generateKey } from '../../../../core/keys/format';
import { OperationError, runStore, type StoreContext } from '../../../../core/operations';
import { AUDIT_DESCRIBERS, AUDIT_READ_ONLY, isAudited } from '../../../../core/operations/audit-log';
import { invoke } from '../../../../core/operations';
import type { Store } from '../../../../core/store/port';
import { STORE_IMPLEMENTATIONS, type OpenedStore } from '../../../contract/store/implementations';
import { TestClock } from '../../../helpers/store-fixtures';

async function operationError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

describe('the audit table', () => {
  const admin = (Object.keys(OPERATION_ROLES) as OperationName[]).filter(
    (n) => OPERATION_ROLES[n] === 'admin',
  );
  const readOnly: readonly string[] = AUDIT_READ_ONLY;

  it('covers every admin operation: described, or listed as read-only — never both', () => {
    for (const name of admin) {
      expect(isAudited(name) || readOnly.includes(name), `${name}: neither described nor read-only`).toBe(
        true,
      );
      expect(isAudited(name) && readOnly.includes(name), `${name}: both`).toBe(false);
    }
  });

  it('describes only admin operations, and lists only admin operations as read-only', () => {
    for (const name of [...Object.keys(AUDIT_DESCRIBERS), ...readOnly])
      expect(OPERATION_ROLES[name as OperationName], name).toBe('admin');
  });
});

describe.each(STORE_IMPLEMENTATIONS.map((impl) => [impl.name, impl] as const))(
  'audit entries on %s',
  (_n, impl) => {
    let opened: OpenedStore;
    let store: Store;
    let clock: TestClock;
    const ctx = (actor?: StoreContext['actor']): StoreContext => ({
      store,
      clock,
      ...(actor ? { actor } : {}),
    });
    const all = async () => (await runStore(ctx(), 'audit:search', { limit: 1000 })).reverse();
    const rawRows = async () => JSON.stringify(await store.audit.search({ limit: 1000, offset: 0 }));

    beforeEach(async () => {
      clock = new TestClock();
      opened = await impl.open();
      store = opened.store;
    });
    afterEach(() => opened.cleanup());

    it('names who made each change: this desk by default, a user, the CLI', async () => {
      await runStore(ctx(), 'accounts:create', { name: 'acme', balance: 5 });
      await runStore(ctx({ kind: 'user', name: 'anna', role: 'admin' }), 'accounts:topup', {
        account: 'acme',
        requests: 100,
      });
      await runStore(ctx({ kind: 'cli', name: 'root' }), 'accounts:set-limits', {
        account: 'acme',
        rps: 2,
        burst: 4,
      });
      clock.advance(1000);
      await runStore(ctx(), 'accounts:clear-limits', { account: 'acme' });
      await runStore(ctx(), 'accounts:set-threshold', { account: 'acme', threshold: 'off' });
      const entries = await all();
      expect(entries.map((e) => [e.actor_kind, e.actor, e.action, e.target, e.detail])).toEqual([
        ['desk', '', 'accounts:create', 'acme', { balance: 5 }],
        ['user', 'anna', 'accounts:topup', 'acme', { requests: 100, balance: 105 }],
        ['cli', 'root', 'accounts:set-limits', 'acme', { rps: 2, burst: 4 }],
        ['desk', '', 'accounts:clear-limits', 'acme', {}],
        ['desk', '', 'accounts:set-threshold', 'acme', { threshold: 'off' }],
      ]);
      expect(entries[0]!.at).toBe('2025-03-01T10:00:00.000Z');
      expect(entries[3]!.at).toBe('2025-03-01T10:00:01.000Z');
    });

    it('writes nothing for a failed change or a read', async () => {
      expect(
        (await operationError(() => runStore(ctx(), 'accounts:topup', { account: 'nobody', requests: 1 })))
          .code,
      ).toBe('not_found');
      await runStore(ctx(), 'accounts:list', undefined);
      await runStore(ctx(), 'keys:list', undefined);
      await runStore(ctx(), 'users:list', undefined);
      expect(await all()).toEqual([]);
    });

    it('never holds a secret: carrier secrets, secret settings, API keys, enrolment codes', async () => {
      // Straight into the store, as a set-up: not an operation, so not in the log.
      await store.accounts.create('default', 100, clock.now().toISOString());
      const carrierSecret = 'cdek-very-secret-password-4711';
      await runStore(ctx(), 'carriers:update', {
        code: 'cdek',
        client_id: 'acct-42',
        client_secret: carrierSecret,
        timeout_ms: 5000,
      });
      await runStore(ctx(), 'carriers:update', { code: 'cdek', client_secret: '' });
      const settingSecret = 'dpd-setting-secret-0815';
      await runStore(ctx(), 'settings:set', { name: 'carriers.dpd.client_key', value: settingSecret });
      await runStore(ctx(), 'settings:set', { name: 'ui.language', value: 'en' });
      await runStore(ctx(), 'settings:reset', { name: 'carriers.dpd.client_key' });
      const created = await runStore(ctx(), 'keys:create', { account: 'default', name: 'shop' });
      const foreign = generateKey();
      const imported = await runStore(ctx(), 'keys:import', {
        account: 'default',
        name: 'moved',
        secret: foreign,
      });
      await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' });
      const enrolment = await runStore(ctx(), 'users:enrol', { name: 'anna', ttl_minutes: 30 });

      const raw = await rawRows();
      for (const secret of [
        carrierSecret,
        settingSecret,
        created.secret,
        created.secret.slice(4, 20),
        foreign,
        foreign.slice(4, 20),
        enrolment.code,
        enrolment.code.replace(/-/g, ''),
      ]) {
        expect(raw).not.toContain(secret);
      }
      const entries = await all();
      expect(entries.map((e) => [e.action, e.target, e.detail])).toEqual([
        ['carriers:update', 'cdek', { timeout_ms: 5000, client_id: 'acct-42', client_secret: 'changed' }],
        ['carriers:update', 'cdek', { client_secret: 'cleared' }],
        ['settings:set', 'carriers.dpd.client_key', { changed: true }],
        ['settings:set', 'ui.language', { value: 'en' }],
        ['settings:reset', 'carriers.dpd.client_key', { reset: true }],
        ['keys:create', created.id, { name: 'shop', account: 'default' }],
        ['keys:import', imported.key!.id, { name: 'moved', account: 'default', imported: 1 }],
        ['users:add', 'anna', { role: 'clerk' }],
        ['users:enrol', 'anna', { expires_at: enrolment.expires_at, ttl_minutes: 30 }],
      ]);
    });

    it('filters by actor, by action or its area, and by time; pages newest first', async () => {
      await runStore(ctx({ kind: 'user', name: 'anna' }), 'users:add', { name: 'boris', role: 'clerk' });
      clock.advance(24 * 60 * 60 * 1000);
      await runStore(ctx({ kind: 'cli', name: 'root' }), 'users:set-role', { name: 'boris', role: 'admin' });
      await runStore(ctx({ kind: 'user', name: 'anna' }), 'accounts:create', { name: 'acme' });
      const actions = (rows: Array<{ action: string }>) => rows.map((r) => r.action);
      expect(actions(await runStore(ctx(), 'audit:search', undefined))).toEqual([
        'accounts:create',
        'users:set-role',
        'users:add',
      ]);
      expect(actions(await runStore(ctx(), 'audit:search', { actor: 'anna' }))).toEqual([
        'accounts:create',
        'users:add',
      ]);
      expect(actions(await runStore(ctx(), 'audit:search', { action: 'users' }))).toEqual([
        'users:set-role',
        'users:add',
      ]);
      expect(actions(await runStore(ctx(), 'audit:search', { action: 'users:add' }))).toEqual(['users:add']);
      expect(actions(await runStore(ctx(), 'audit:search', { to: '2025-03-01' }))).toEqual(['users:add']);
      expect(actions(await runStore(ctx(), 'audit:search', { from: '2025-03-02' }))).toEqual([
        'accounts:create',
        'users:set-role',
      ]);
      expect(actions(await runStore(ctx(), 'audit:search', { limit: 1, offset: 1 }))).toEqual([
        'users:set-role',
      ]);
      const [setRole] = await runStore(ctx(), 'audit:search', { action: 'users:set-role' });
      expect(setRole).toMatchObject({
        actor_kind: 'cli',
        actor: 'root',
        target: 'boris',
        detail: { role: 'admin', was: 'clerk' },
      });
      const bad = await operationError(() => runStore(ctx(), 'audit:search', { from: 'yesterday' }));
      expect(bad.code).toBe('invalid');
      expect(bad.message).toBe('from: must be a date (2025-03-14) or an ISO timestamp.');
    });

    it('exports CSV in the UI language: Russian headers by default, English after ui.language=en', async () => {
      await runStore(ctx({ kind: 'user', name: 'anna' }), 'accounts:create', { name: 'acme', balance: 7 });
      const text = async (filter?: Record<string, string>) => {
        const file = await runStore(ctx(), 'audit:export', filter);
        expect(file.filename).toBe('ratedesk-audit-2025-03-01.csv');
        expect(file.mime).toBe('text/csv;charset=utf-8');
        return Buffer.from(file.base64, 'base64').toString('utf8');
      };
      const ru = (await text()).split('\r\n');
      expect(ru[0]).toBe('\uFEFF"Дата";"Кто";"Откуда";"Действие";"Объект";"Подробности"');
      expect(ru[1]).toMatch(
        /^"\d{4}-\d{2}-\d{2} \d{2}:\d{2}";"anna";"сотрудник";"accounts:create";"acme";"balance: 7"$/,
      );
      await runStore(ctx(), 'settings:set', { name: 'ui.language', value: 'en' });
      const en = (await text()).split('\r\n');
      expect(en[0]).toBe('\uFEFF"Date";"Who";"Via";"Action";"Target";"Detail"');
      expect(en[1]).toMatch(/;"";"this computer";"settings:set";"ui.language";"value: en"$/);
      expect(en[2]).toMatch(/;"anna";"desk user";"accounts:create";"acme";"balance: 7"$/);
      expect((await text({ actor: 'anna' })).split('\r\n')).toHaveLength(3);
    });

    it('is written by invoke() as by runStore(): the desk and the CLI record alike', async () => {
      await invoke(
        'accounts:create',
        { name: 'via-invoke' },
        ctx({ kind: 'user', name: 'vera', role: 'admin' }),
      );
      expect((await all()).map((e) => [e.actor, e.action, e.target])).toEqual([
        ['vera', 'accounts:create', 'via-invoke'],
      ]);
    });
  },
);
