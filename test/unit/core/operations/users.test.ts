// Desk users, enrolment codes and devices through the operations (#20), on both stores: what an admin runs
// from the CLI or a company desk, and what the gateway relies on (a code works once, a revoked device or a
// disabled user is refused).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  digestDeviceToken,
  digestEnrolmentCode,
  generateDeviceToken,
} from '../../../../core/keys/desk-credentials';
import { OperationError, runStore, type StoreContext } from '../../../../core/operations';
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

describe.each(STORE_IMPLEMENTATIONS.map((impl) => [impl.name, impl] as const))('users on %s', (_n, impl) => {
  let opened: OpenedStore;
  let store: Store;
  let clock: TestClock;
  const ctx = (): StoreContext => ({ store, clock });
  const now = () => clock.now().toISOString();
  const device = (id: string) => ({
    id,
    token_digest: digestDeviceToken(generateDeviceToken()),
    name: `Касса ${id}`,
  });

  beforeEach(async () => {
    clock = new TestClock();
    opened = await impl.open();
    store = opened.store;
  });
  afterEach(() => opened.cleanup());

  it('adds, lists, changes the role of, disables, enables and removes a user', async () => {
    expect(await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' })).toMatchObject({
      name: 'anna',
      role: 'clerk',
      disabled: false,
      devices: 0,
      created_at: '2025-03-01T10:00:00.000Z',
    });
    await runStore(ctx(), 'users:add', { name: 'boris', role: 'admin' });
    expect((await runStore(ctx(), 'users:list', undefined)).map((u) => [u.name, u.role])).toEqual([
      ['anna', 'clerk'],
      ['boris', 'admin'],
    ]);
    expect(await runStore(ctx(), 'users:set-role', { name: 'anna', role: 'admin' })).toMatchObject({
      role: 'admin',
    });
    expect(await runStore(ctx(), 'users:disable', { name: 'anna' })).toMatchObject({ disabled: true });
    expect(await runStore(ctx(), 'users:enable', { name: 'anna' })).toMatchObject({ disabled: false });
    expect(await runStore(ctx(), 'users:remove', { name: 'anna' })).toEqual({ name: 'anna' });
    expect((await runStore(ctx(), 'users:list', undefined)).map((u) => u.name)).toEqual(['boris']);
  });

  it('refuses a taken name (case-insensitively), an unknown user, a name that is no name', async () => {
    await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' });
    const taken = await operationError(() => runStore(ctx(), 'users:add', { name: 'Anna', role: 'admin' }));
    expect([taken.code, taken.message]).toEqual(['conflict', 'User "Anna" already exists.']);
    const nobody = { name: 'nobody' };
    const unknown = [
      () => runStore(ctx(), 'users:set-role', { ...nobody, role: 'admin' }),
      () => runStore(ctx(), 'users:disable', nobody),
      () => runStore(ctx(), 'users:enable', nobody),
      () => runStore(ctx(), 'users:remove', nobody),
      () => runStore(ctx(), 'users:enrol', nobody),
      () => runStore(ctx(), 'devices:list', { user: 'nobody' }),
    ];
    for (const call of unknown) {
      const e = await operationError(call);
      expect([e.code, e.message]).toEqual(['not_found', 'No user named "nobody". See "users list".']);
    }
    expect(
      (await operationError(() => runStore(ctx(), 'users:add', { name: 'a b', role: 'clerk' }))).code,
    ).toBe('invalid');
    expect(
      (await operationError(() => runStore(ctx(), 'users:add', { name: 'x', role: 'owner' }))).code,
    ).toBe('invalid');
  });

  it('enrols with a one-time code: XXXX-XXXX-XXXX, only its digest kept, it works once and not after expiry', async () => {
    await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' });
    const first = await runStore(ctx(), 'users:enrol', { name: 'anna' });
    expect(first.user).toBe('anna');
    expect(first.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    // 15 minutes by default.
    expect(first.expires_at).toBe('2025-03-01T10:15:00.000Z');
    // A second code replaces the first, unused one.
    const second = await runStore(ctx(), 'users:enrol', { name: 'anna', ttl_minutes: 60 });
    expect(second.expires_at).toBe('2025-03-01T11:00:00.000Z');
    expect(
      (await store.users.redeemEnrolmentCode(digestEnrolmentCode(first.code), now(), device('dev_a'))).ok,
    ).toBe(false);
    // Typed in lower case with spaces: the same code.
    const typed = second.code.toLowerCase().replace(/-/g, ' ');
    const redeemed = await store.users.redeemEnrolmentCode(
      digestEnrolmentCode(typed),
      now(),
      device('dev_b'),
    );
    expect(redeemed).toMatchObject({ ok: true, user: { name: 'anna' }, device: { id: 'dev_b' } });
    expect(
      await store.users.redeemEnrolmentCode(digestEnrolmentCode(second.code), now(), device('dev_c')),
    ).toEqual({
      ok: false,
      reason: 'used',
    });
    const third = await runStore(ctx(), 'users:enrol', { name: 'anna', ttl_minutes: 1 });
    clock.advance(61_000);
    expect(
      await store.users.redeemEnrolmentCode(digestEnrolmentCode(third.code), now(), device('dev_d')),
    ).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses a code for a disabled user', async () => {
    await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' });
    await runStore(ctx(), 'users:disable', { name: 'anna' });
    const e = await operationError(() => runStore(ctx(), 'users:enrol', { name: 'anna' }));
    expect([e.code, e.message]).toEqual([
      'conflict',
      'User "anna" is disabled; enable them first ("users enable").',
    ]);
  });

  it('lists devices (all, or one user’s) and revokes one: the token is refused from then on', async () => {
    await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' });
    await runStore(ctx(), 'users:add', { name: 'boris', role: 'admin' });
    const tokens: Record<string, string> = {};
    for (const [user, id] of [
      ['anna', 'dev_a1'],
      ['anna', 'dev_a2'],
      ['boris', 'dev_b1'],
    ] as const) {
      const { code } = await runStore(ctx(), 'users:enrol', { name: user });
      const token = generateDeviceToken();
      tokens[id] = token;
      const r = await store.users.redeemEnrolmentCode(digestEnrolmentCode(code), now(), {
        id,
        token_digest: digestDeviceToken(token),
        name: `Касса ${id}`,
      });
      expect(r.ok).toBe(true);
    }
    expect((await runStore(ctx(), 'devices:list', undefined)).map((d) => [d.user, d.id]).sort()).toEqual([
      ['anna', 'dev_a1'],
      ['anna', 'dev_a2'],
      ['boris', 'dev_b1'],
    ]);
    expect((await runStore(ctx(), 'devices:list', { user: 'boris' })).map((d) => d.id)).toEqual(['dev_b1']);
    expect((await runStore(ctx(), 'users:list', undefined)).map((u) => [u.name, u.devices])).toEqual([
      ['anna', 2],
      ['boris', 1],
    ]);
    expect(await store.users.deviceAuth(digestDeviceToken(tokens.dev_a1!))).toMatchObject({
      user_name: 'anna',
    });
    expect(await runStore(ctx(), 'devices:revoke', { id: 'dev_a1' })).toEqual({
      id: 'dev_a1',
      state: 'revoked',
    });
    expect(await runStore(ctx(), 'devices:revoke', { id: 'dev_a1' })).toEqual({
      id: 'dev_a1',
      state: 'already',
    });
    expect(await store.users.deviceAuth(digestDeviceToken(tokens.dev_a1!))).toBeUndefined();
    expect(await store.users.deviceAuth(digestDeviceToken(tokens.dev_a2!))).toBeDefined();
    const [revoked] = await runStore(ctx(), 'devices:list', { user: 'anna' }).then((l) =>
      l.filter((d) => d.id === 'dev_a1'),
    );
    expect(revoked!.revoked_at).toBe('2025-03-01T10:00:00.000Z');
    const missing = await operationError(() => runStore(ctx(), 'devices:revoke', { id: 'dev_nope' }));
    expect([missing.code, missing.message]).toEqual([
      'not_found',
      'No device with id dev_nope. See "devices list".',
    ]);
    // A disabled user's devices are refused too; removing the user removes them.
    await runStore(ctx(), 'users:disable', { name: 'anna' });
    expect(await store.users.deviceAuth(digestDeviceToken(tokens.dev_a2!))).toBeUndefined();
    await runStore(ctx(), 'users:remove', { name: 'boris' });
    expect(await store.users.deviceAuth(digestDeviceToken(tokens.dev_b1!))).toBeUndefined();
    expect((await runStore(ctx(), 'devices:list', undefined)).map((d) => d.user)).not.toContain('boris');
  });

  it('writes each change to the audit log, the device revoke with its user', async () => {
    await runStore(ctx(), 'users:add', { name: 'anna', role: 'clerk' });
    const { code } = await runStore(ctx(), 'users:enrol', { name: 'anna' });
    await store.users.redeemEnrolmentCode(digestEnrolmentCode(code), now(), device('dev_x'));
    await runStore(ctx(), 'devices:revoke', { id: 'dev_x' });
    await runStore(ctx(), 'users:disable', { name: 'anna' });
    await runStore(ctx(), 'users:enable', { name: 'anna' });
    await runStore(ctx(), 'users:remove', { name: 'anna' });
    const entries = (await runStore(ctx(), 'audit:search', undefined)).reverse();
    expect(entries.map((e) => [e.action, e.target, e.detail])).toEqual([
      ['users:add', 'anna', { role: 'clerk' }],
      ['users:enrol', 'anna', { expires_at: '2025-03-01T10:15:00.000Z', ttl_minutes: 15 }],
      ['devices:revoke', 'dev_x', { user: 'anna', device: 'Касса dev_x', state: 'revoked' }],
      ['users:disable', 'anna', {}],
      ['users:enable', 'anna', {}],
      ['users:remove', 'anna', {}],
    ]);
  });
});
