// Desk users, enrolment codes and devices (port: UsersStore, #20): names unique case-insensitively, a code
// traded once for a device, and a device token that authenticates only while the device is active and its
// user enabled and present.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewDevice, Store } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { DAY_MS, NOW, NOW_MS, unique, useStore } from './harness';

const LATER = new Date(NOW_MS + 60_000).toISOString();
const EXPIRES = new Date(NOW_MS + 15 * 60_000).toISOString();

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

function newDevice(name = 'Склад Подольск, касса 2'): NewDevice & { token: string } {
  const token = unique('rdd_token');
  return { id: unique('dev'), token_digest: digest(token), name, token };
}

async function userWithCode(store: Store, name = unique('user')) {
  const user = await store.users.create(name, 'clerk', NOW);
  if (user === 'taken') throw new Error('taken');
  const code = digest(unique('code'));
  await store.users.putEnrolmentCode(user.id, code, EXPIRES, NOW);
  return { user, code };
}

describe.each(STORE_IMPLEMENTATIONS)('users ($name)', (impl) => {
  const fx = useStore(impl);

  describe('users', () => {
    it('creates users with roles, refuses a name taken in any case, and finds by name in any case', async () => {
      const { store } = fx;
      const ivan = await store.users.create('Иван.Петров', 'admin', NOW);
      expect(ivan).toEqual({
        id: expect.any(Number),
        name: 'Иван.Петров',
        role: 'admin',
        disabled: false,
        created_at: NOW,
        devices: 0,
      });
      expect(await store.users.create('ИВАН.петров', 'clerk', LATER)).toBe('taken');
      expect(await store.users.create('иван.петров', 'admin', LATER)).toBe('taken');
      const anna = await store.users.create('anna', 'clerk', LATER);
      expect(anna).toMatchObject({ name: 'anna', role: 'clerk' });
      expect(await store.users.create('ANNA', 'clerk', LATER)).toBe('taken');

      expect(await store.users.byName('иван.ПЕТРОВ')).toEqual(ivan);
      expect(await store.users.byName('nobody')).toBeUndefined();
      expect((await store.users.list()).map((u) => u.name)).toEqual(['anna', 'Иван.Петров']);
    });

    it('changes a role, disables and enables', async () => {
      const { store } = fx;
      const user = (await store.users.create('clerk-1', 'clerk', NOW)) as { id: number };
      expect(await store.users.setRole(user.id, 'admin')).toMatchObject({ role: 'admin', disabled: false });
      expect(await store.users.setDisabled(user.id, true, LATER)).toMatchObject({ disabled: true });
      expect(await store.users.byName('clerk-1')).toMatchObject({ role: 'admin', disabled: true });
      expect(await store.users.setDisabled(user.id, false, LATER)).toMatchObject({ disabled: false });
      expect(await store.users.setRole(987_654, 'admin')).toBeUndefined();
      expect(await store.users.setDisabled(987_654, true, LATER)).toBeUndefined();
    });

    it('counts active devices and removes a user with their devices and codes', async () => {
      const { store } = fx;
      const { user, code } = await userWithCode(store, 'gone');
      const first = newDevice();
      expect((await store.users.redeemEnrolmentCode(code, LATER, first)).ok).toBe(true);
      const again = digest(unique('code'));
      await store.users.putEnrolmentCode(user.id, again, EXPIRES, LATER);
      const second = newDevice('второй');
      expect((await store.users.redeemEnrolmentCode(again, LATER, second)).ok).toBe(true);
      expect(await store.users.byName('gone')).toMatchObject({ devices: 2 });
      expect(await store.users.revokeDevice(first.id, LATER)).toBe('revoked');
      expect(await store.users.byName('gone')).toMatchObject({ devices: 1 });

      const pending = digest(unique('code'));
      await store.users.putEnrolmentCode(user.id, pending, EXPIRES, LATER);
      const other = await userWithCode(store, 'stays');
      const kept = newDevice();
      expect((await store.users.redeemEnrolmentCode(other.code, LATER, kept)).ok).toBe(true);

      expect(await store.users.remove(user.id)).toBe(true);
      expect(await store.users.remove(user.id)).toBe(false);
      expect(await store.users.byName('gone')).toBeUndefined();
      expect((await store.users.devices()).map((d) => d.id)).toEqual([kept.id]);
      expect(await store.users.deviceAuth(second.token_digest)).toBeUndefined();
      expect(await store.users.redeemEnrolmentCode(pending, LATER, newDevice())).toEqual({
        ok: false,
        reason: 'unknown',
      });
      // The name is free again.
      expect(await store.users.create('GONE', 'clerk', LATER)).toMatchObject({ name: 'GONE', devices: 0 });
    });
  });

  describe('enrolment', () => {
    it('trades a code for a device once', async () => {
      const { store } = fx;
      const { user, code } = await userWithCode(store, 'Пётр');
      const device = newDevice();
      const redeemed = await store.users.redeemEnrolmentCode(code, LATER, device);
      expect(redeemed).toEqual({
        ok: true,
        user: { ...user, devices: 1 },
        device: {
          id: device.id,
          user_id: user.id,
          user_name: 'Пётр',
          name: device.name,
          created_at: LATER,
          last_seen_at: null,
          revoked_at: null,
        },
      });
      expect(await store.users.redeemEnrolmentCode(code, LATER, newDevice())).toEqual({
        ok: false,
        reason: 'used',
      });
      expect(await store.users.devices(user.id)).toHaveLength(1);
    });

    it('refuses an unknown code, an expired one and one of a disabled user', async () => {
      const { store } = fx;
      expect(await store.users.redeemEnrolmentCode(digest('nothing'), NOW, newDevice())).toEqual({
        ok: false,
        reason: 'unknown',
      });

      const { code } = await userWithCode(store);
      expect(await store.users.redeemEnrolmentCode(code, EXPIRES, newDevice())).toEqual({
        ok: false,
        reason: 'expired',
      });
      expect(
        await store.users.redeemEnrolmentCode(code, new Date(NOW_MS + DAY_MS).toISOString(), newDevice()),
      ).toEqual({ ok: false, reason: 'expired' });

      const disabled = await userWithCode(store);
      await store.users.setDisabled(disabled.user.id, true, NOW);
      expect(await store.users.redeemEnrolmentCode(disabled.code, LATER, newDevice())).toEqual({
        ok: false,
        reason: 'disabled',
      });
      // Enabled again before it expires, the code works.
      await store.users.setDisabled(disabled.user.id, false, NOW);
      expect((await store.users.redeemEnrolmentCode(disabled.code, LATER, newDevice())).ok).toBe(true);
      expect(await store.users.devices(disabled.user.id)).toHaveLength(1);
    });

    it('replaces an unused code with a new one', async () => {
      const { store } = fx;
      const { user, code } = await userWithCode(store);
      const replacement = digest(unique('code'));
      await store.users.putEnrolmentCode(user.id, replacement, EXPIRES, LATER);
      expect(await store.users.redeemEnrolmentCode(code, LATER, newDevice())).toEqual({
        ok: false,
        reason: 'unknown',
      });
      expect((await store.users.redeemEnrolmentCode(replacement, LATER, newDevice())).ok).toBe(true);
    });

    // Real concurrency where instances share a database; on SQLite two connections to one file, in turn.
    it('lets one of two instances redeem the same code at once', async () => {
      const first = fx.store;
      const second = await fx.opened.openSecond();
      for (let round = 0; round < 5; round++) {
        const { user, code } = await userWithCode(first);
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 === 0 ? first : second).users.redeemEnrolmentCode(code, LATER, newDevice()),
          ),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok)).toEqual(Array(5).fill({ ok: false, reason: 'used' }));
        expect(await second.users.devices(user.id)).toHaveLength(1);
      }
    });
  });

  describe('devices', () => {
    it('authenticates an active device of an enabled user only', async () => {
      const { store } = fx;
      const { user, code } = await userWithCode(store, 'Мария');
      const device = newDevice();
      await store.users.redeemEnrolmentCode(code, LATER, device);
      const auth = {
        device_id: device.id,
        device_name: device.name,
        user_id: user.id,
        user_name: 'Мария',
        role: 'clerk',
      };
      expect(await store.users.deviceAuth(device.token_digest)).toEqual(auth);
      expect(await store.users.deviceAuth(digest('other'))).toBeUndefined();

      await store.users.setRole(user.id, 'admin');
      expect(await store.users.deviceAuth(device.token_digest)).toEqual({ ...auth, role: 'admin' });

      await store.users.setDisabled(user.id, true, LATER);
      expect(await store.users.deviceAuth(device.token_digest)).toBeUndefined();
      await store.users.setDisabled(user.id, false, LATER);
      expect(await store.users.deviceAuth(device.token_digest)).toMatchObject({ device_id: device.id });

      expect(await store.users.revokeDevice(device.id, LATER)).toBe('revoked');
      expect(await store.users.deviceAuth(device.token_digest)).toBeUndefined();
      expect(await store.users.revokeDevice(device.id, LATER)).toBe('already');
      expect(await store.users.revokeDevice('no-such-device', LATER)).toBe('missing');
      expect(await store.users.devices(user.id)).toEqual([
        expect.objectContaining({ id: device.id, revoked_at: LATER }),
      ]);

      const removed = await userWithCode(store);
      const gone = newDevice();
      await store.users.redeemEnrolmentCode(removed.code, LATER, gone);
      expect(await store.users.deviceAuth(gone.token_digest)).toBeDefined();
      await store.users.remove(removed.user.id);
      expect(await store.users.deviceAuth(gone.token_digest)).toBeUndefined();
    });

    it('lists devices of one user or all, and records their last use', async () => {
      const { store } = fx;
      const a = await userWithCode(store, 'a-user');
      const b = await userWithCode(store, 'b-user');
      const da = newDevice('касса 1');
      const db = newDevice('касса 2');
      await store.users.redeemEnrolmentCode(a.code, NOW, da);
      await store.users.redeemEnrolmentCode(b.code, LATER, db);
      expect(await store.users.devices(a.user.id)).toEqual([
        expect.objectContaining({ id: da.id, user_name: 'a-user', name: 'касса 1' }),
      ]);
      expect((await store.users.devices()).map((d) => [d.id, d.user_name])).toEqual([
        [da.id, 'a-user'],
        [db.id, 'b-user'],
      ]);
      await store.users.touchDevice(da.id, LATER);
      await store.users.touchDevice('no-such-device', LATER);
      expect(await store.users.devices(a.user.id)).toEqual([
        expect.objectContaining({ id: da.id, last_seen_at: LATER }),
      ]);
    });

    it('keeps users and devices across a reopen', async () => {
      const { user, code } = await userWithCode(fx.store, 'durable');
      const device = newDevice();
      await fx.store.users.redeemEnrolmentCode(code, LATER, device);
      const store = await fx.opened.reopen();
      expect(await store.users.byName('DURABLE')).toEqual({ ...user, devices: 1 });
      expect(await store.users.deviceAuth(device.token_digest)).toMatchObject({ user_id: user.id });
    });
  });
});
