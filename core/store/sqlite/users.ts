// Desk users, their enrolment codes and devices in the data file (#20). A code is redeemed inside one
// BEGIN IMMEDIATE transaction: SQLite lets one writer in at a time, so of two redeems of the same code
// (even from two processes) the second finds it used.
import { nameKey } from '../name-key';
import type {
  DeviceAuthRow,
  DeviceRow,
  NewDevice,
  RedeemResult,
  UserRole,
  UserRow,
  UsersStore,
} from '../port';
import type { Db } from './open';
import type { SqliteRunner } from './runner';

const SELECT_USER = `
  SELECT u.id, u.name, u.role, u.disabled_at IS NOT NULL AS disabled, u.created_at,
         (SELECT COUNT(*) FROM devices d WHERE d.user_id = u.id AND d.revoked_at IS NULL) AS devices
  FROM users u`;

const SELECT_DEVICE = `
  SELECT d.id, d.user_id, u.name AS user_name, d.name, d.created_at, d.last_seen_at, d.revoked_at
  FROM devices d JOIN users u ON u.id = d.user_id`;

type StoredUser = Omit<UserRow, 'disabled'> & { disabled: 0 | 1 };

const asUser = (row: StoredUser | undefined): UserRow | undefined =>
  row && { ...row, disabled: row.disabled === 1 };

interface CodeState {
  user_id: number;
  expires_at: string;
  used_at: string | null;
  disabled: 0 | 1;
}

export function usersRepo(db: Db) {
  const insert = db.prepare<[string, string, UserRole, string]>(
    'INSERT INTO users (name, name_key, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING',
  );
  const byId = db.prepare<[number], StoredUser>(`${SELECT_USER} WHERE u.id = ?`);
  const byKey = db.prepare<[string], StoredUser>(`${SELECT_USER} WHERE u.name_key = ?`);
  const all = db.prepare<[], StoredUser>(`${SELECT_USER} ORDER BY u.name_key, u.id`);
  const setRole = db.prepare<[UserRole, number]>('UPDATE users SET role = ? WHERE id = ?');
  // An enabled user disabled again keeps the first time it was disabled.
  const disable = db.prepare<[string, number]>(
    'UPDATE users SET disabled_at = COALESCE(disabled_at, ?) WHERE id = ?',
  );
  const enable = db.prepare<[number]>('UPDATE users SET disabled_at = NULL WHERE id = ?');
  const remove = db.prepare<[number]>('DELETE FROM users WHERE id = ?');
  const dropUnused = db.prepare<[number]>(
    'DELETE FROM enrolment_codes WHERE user_id = ? AND used_at IS NULL',
  );
  const putCode = db.prepare<[number, string, string, string]>(
    'INSERT INTO enrolment_codes (user_id, code_digest, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const codeState = db.prepare<[string], CodeState>(`
    SELECT c.user_id, c.expires_at, c.used_at, u.disabled_at IS NOT NULL AS disabled
    FROM enrolment_codes c JOIN users u ON u.id = c.user_id WHERE c.code_digest = ?`);
  const useCode = db.prepare<[string, string]>(
    'UPDATE enrolment_codes SET used_at = ? WHERE code_digest = ? AND used_at IS NULL',
  );
  const insertDevice = db.prepare<[string, number, string, string, string]>(
    'INSERT INTO devices (id, user_id, token_digest, name, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const auth = db.prepare<[string], DeviceAuthRow>(`
    SELECT d.id AS device_id, d.name AS device_name, u.id AS user_id, u.name AS user_name, u.role
    FROM devices d JOIN users u ON u.id = d.user_id
    WHERE d.token_digest = ? AND d.revoked_at IS NULL AND u.disabled_at IS NULL`);
  const deviceById = db.prepare<[string], DeviceRow>(`${SELECT_DEVICE} WHERE d.id = ?`);
  const allDevices = db.prepare<[], DeviceRow>(`${SELECT_DEVICE} ORDER BY d.created_at, d.id`);
  const devicesOf = db.prepare<[number], DeviceRow>(
    `${SELECT_DEVICE} WHERE d.user_id = ? ORDER BY d.created_at, d.id`,
  );
  const revoke = db.prepare<[string, string]>(
    'UPDATE devices SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const touch = db.prepare<[string, string]>('UPDATE devices SET last_seen_at = ? WHERE id = ?');

  const user = (id: number): UserRow | undefined => asUser(byId.get(id));

  return {
    /** Undefined when the name (case-folded) is taken. */
    create: (name: string, role: UserRole, now: string): UserRow | undefined => {
      const done = insert.run(name, nameKey(name), role, now);
      return done.changes === 1 ? user(Number(done.lastInsertRowid)) : undefined;
    },
    byId: user,
    byName: (name: string): UserRow | undefined => asUser(byKey.get(nameKey(name))),
    list: (): UserRow[] => all.all().map((row) => asUser(row)!),
    setRole: (id: number, role: UserRole): UserRow | undefined => {
      setRole.run(role, id);
      return user(id);
    },
    setDisabled: (id: number, disabled: boolean, now: string): UserRow | undefined => {
      if (disabled) disable.run(now, id);
      else enable.run(id);
      return user(id);
    },
    /** Codes and devices go with the user (ON DELETE CASCADE). */
    remove: (id: number): boolean => remove.run(id).changes === 1,
    putEnrolmentCode(userId: number, codeDigest: string, expiresAt: string, now: string): void {
      dropUnused.run(userId);
      putCode.run(userId, codeDigest, now, expiresAt);
    },
    /** Run inside one write transaction (the slice's write()). */
    redeem(codeDigest: string, now: string, device: NewDevice): RedeemResult {
      const code = codeState.get(codeDigest);
      if (!code) return { ok: false, reason: 'unknown' };
      if (code.used_at !== null) return { ok: false, reason: 'used' };
      if (code.expires_at <= now) return { ok: false, reason: 'expired' };
      if (code.disabled === 1) return { ok: false, reason: 'disabled' };
      if (useCode.run(now, codeDigest).changes !== 1) return { ok: false, reason: 'used' };
      insertDevice.run(device.id, code.user_id, device.token_digest, device.name, now);
      return { ok: true, user: user(code.user_id)!, device: deviceById.get(device.id)! };
    },
    deviceAuth: (tokenDigest: string): DeviceAuthRow | undefined => auth.get(tokenDigest),
    deviceById: (id: string): DeviceRow | undefined => deviceById.get(id),
    devices: (userId?: number): DeviceRow[] =>
      userId === undefined ? allDevices.all() : devicesOf.all(userId),
    /** False when it was already revoked (or is not there). */
    revokeDevice: (id: string, now: string): boolean => revoke.run(now, id).changes === 1,
    touchDevice: (id: string, now: string): void => void touch.run(now, id),
  };
}

export type UsersRepo = ReturnType<typeof usersRepo>;

/** The port's slice: admin changes as write transactions; a device's last use rides the group commit. */
export function sqliteUsers(r: UsersRepo, run: SqliteRunner): UsersStore {
  return {
    create: (name, role, now) => run.write(null, () => r.create(name, role, now) ?? ('taken' as const)),
    list: () => run.read(() => r.list()),
    byName: (name) => run.read(() => r.byName(name)),
    setRole: (id, role) => run.write(null, () => r.setRole(id, role)),
    setDisabled: (id, disabled, now) => run.write(null, () => r.setDisabled(id, disabled, now)),
    remove: (id) => run.write(null, () => r.remove(id)),
    putEnrolmentCode: (userId, codeDigest, expiresAt, now) =>
      run.write(null, () => r.putEnrolmentCode(userId, codeDigest, expiresAt, now)),
    redeemEnrolmentCode: (codeDigest, now, device) =>
      run.write(null, () => r.redeem(codeDigest, now, device)),
    deviceAuth: (tokenDigest) => run.read(() => r.deviceAuth(tokenDigest)),
    devices: (userId) => run.read(() => r.devices(userId)),
    revokeDevice: (id, now) =>
      run.write(null, () => {
        if (!r.deviceById(id)) return 'missing' as const;
        return r.revokeDevice(id, now) ? ('revoked' as const) : ('already' as const);
      }),
    touchDevice: (id, now) => run.grouped(null, () => r.touchDevice(id, now)),
  };
}
