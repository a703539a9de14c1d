// Desk users, their roles and enrolled devices (#20). An enrolment code is shown once and only its digest is
// stored; the desk trades it for a device token at the gateway (core/keys/desk-credentials.ts).
import type { DeviceView, UserView } from '../contract/operations';
import { digestEnrolmentCode, generateEnrolmentCode } from '../keys/desk-credentials';
import type { DeviceRow, Store, UserRow } from '../store/port';
import { storeCall, type AreaOperations } from './define';
import { OperationError } from './errors';

export function userView(row: UserRow): UserView {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    created_at: row.created_at,
    devices: row.devices,
  };
}

export function deviceView(row: DeviceRow): DeviceView {
  return {
    id: row.id,
    user: row.user_name,
    name: row.name,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    revoked_at: row.revoked_at,
  };
}

function noUser(name: string): OperationError {
  return new OperationError('not_found', `No user named ${JSON.stringify(name)}. See "users list".`);
}

export async function requireUser(store: Store, name: string): Promise<UserRow> {
  const row = await store.users.byName(name);
  if (!row) throw noUser(name);
  return row;
}

/** A user removed between the lookup and the write reads as not found, like one never there. */
async function changed(name: string, write: Promise<UserRow | undefined>): Promise<UserView> {
  const row = await write;
  if (!row) throw noUser(name);
  return userView(row);
}

type UserOperation =
  | 'users:list'
  | 'users:add'
  | 'users:set-role'
  | 'users:disable'
  | 'users:enable'
  | 'users:remove'
  | 'users:enrol'
  | 'devices:list'
  | 'devices:revoke';

export const userOperations = {
  'users:list': { needs: 'store', run: async ({ store }) => (await store.users.list()).map(userView) },

  'users:add': {
    needs: 'store',
    run: async ({ store, clock }, { name, role }) => {
      const row = await store.users.create(name, role, clock.now().toISOString());
      if (row === 'taken')
        throw new OperationError('conflict', `User ${JSON.stringify(name)} already exists.`);
      return userView(row);
    },
  },

  'users:set-role': {
    needs: 'store',
    run: async ({ store }, { name, role }) => {
      const user = await requireUser(store, name);
      return changed(name, store.users.setRole(user.id, role));
    },
  },

  /** The gateway checks the user on every call, so the user's devices are refused from the next one on. */
  'users:disable': {
    needs: 'store',
    run: async ({ store, clock }, { name }) => {
      const user = await requireUser(store, name);
      return changed(name, store.users.setDisabled(user.id, true, clock.now().toISOString()));
    },
  },

  'users:enable': {
    needs: 'store',
    run: async ({ store, clock }, { name }) => {
      const user = await requireUser(store, name);
      return changed(name, store.users.setDisabled(user.id, false, clock.now().toISOString()));
    },
  },

  'users:remove': {
    needs: 'store',
    run: async ({ store }, { name }) => {
      const user = await requireUser(store, name);
      if (!(await store.users.remove(user.id))) throw noUser(name);
      return { name: user.name };
    },
  },

  'users:enrol': {
    needs: 'store',
    run: async ({ store, clock }, { name, ttl_minutes }) => {
      const user = await requireUser(store, name);
      if (user.disabled) {
        throw new OperationError(
          'conflict',
          `User ${JSON.stringify(user.name)} is disabled; enable them first ("users enable").`,
        );
      }
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + ttl_minutes * 60_000).toISOString();
      const code = generateEnrolmentCode();
      await store.users.putEnrolmentCode(user.id, digestEnrolmentCode(code), expiresAt, now.toISOString());
      return { user: user.name, code, expires_at: expiresAt };
    },
  },

  'devices:list': {
    needs: 'store',
    run: async ({ store }, input) => {
      const userId = input?.user === undefined ? undefined : (await requireUser(store, input.user)).id;
      return (await store.users.devices(userId)).map(deviceView);
    },
  },

  /** Permanent; revoking a revoked device answers `already`, so a retried revoke is not a failure. */
  'devices:revoke': {
    needs: 'store',
    run: async ({ store, clock }, { id }) => {
      const state = await store.users.revokeDevice(id, clock.now().toISOString());
      if (state === 'missing')
        throw new OperationError('not_found', `No device with id ${id}. See "devices list".`);
      return { id, state };
    },
  },
} satisfies AreaOperations<UserOperation>;

const ops = userOperations;
export const addUser = storeCall('users:add', ops['users:add']);
export const enrolUser = storeCall('users:enrol', ops['users:enrol']);
