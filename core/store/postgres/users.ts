// Desk users, their enrolment codes and devices on the company database (#20). A code is redeemed by one
// conditional UPDATE (… WHERE used_at IS NULL AND expires_at > now … RETURNING) in the same transaction as the
// device's INSERT: of two instances racing with the same code, the second's UPDATE waits for the first's
// commit, finds the code used and changes nothing. Nothing here is cached by an instance: deviceAuth reads the
// rows on every desk call, so no change generation is bumped (see migration 0003).
import { nameKey } from '../name-key';
import type { DeviceAuthRow, DeviceRow, RedeemResult, UserRow, UsersStore } from '../port';
import type { PgDb, Queryable } from './pool';

const SELECT_USER = `
  SELECT u.id, u.name, u.role, u.disabled_at IS NOT NULL AS disabled, u.created_at,
         (SELECT COUNT(*) FROM devices d WHERE d.user_id = u.id AND d.revoked_at IS NULL)::integer AS devices
  FROM users u`;

const SELECT_DEVICE = `
  SELECT d.id, d.user_id, u.name AS user_name, d.name, d.created_at, d.last_seen_at, d.revoked_at
  FROM devices d JOIN users u ON u.id = d.user_id`;

const DEVICE_AUTH = `
  SELECT d.id AS device_id, d.name AS device_name, u.id AS user_id, u.name AS user_name, u.role
  FROM devices d JOIN users u ON u.id = d.user_id
  WHERE d.token_digest = $1 AND d.revoked_at IS NULL AND u.disabled_at IS NULL`;

async function userById(q: Queryable, id: number): Promise<UserRow | undefined> {
  return (await q.query<UserRow>(`${SELECT_USER} WHERE u.id = $1`, [id])).rows[0];
}

export function pgUsers(db: PgDb): UsersStore {
  return {
    async create(name, role, now) {
      const made = await db.first<{ id: number }>(
        `INSERT INTO users (name, name_key, role, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name_key) DO NOTHING RETURNING id`,
        [name, nameKey(name), role, now],
      );
      if (!made) return 'taken';
      return (await db.first<UserRow>(`${SELECT_USER} WHERE u.id = $1`, [made.id]))!;
    },
    list: () => db.rows<UserRow>(`${SELECT_USER} ORDER BY u.name_key, u.id`),
    byName: (name) => db.first<UserRow>(`${SELECT_USER} WHERE u.name_key = $1`, [nameKey(name)]),
    setRole: async (id, role) => {
      await db.rows('UPDATE users SET role = $1 WHERE id = $2', [role, id]);
      return db.first<UserRow>(`${SELECT_USER} WHERE u.id = $1`, [id]);
    },
    setDisabled: async (id, disabled, now) => {
      // An enabled user disabled again keeps the first time it was disabled.
      if (disabled)
        await db.rows('UPDATE users SET disabled_at = COALESCE(disabled_at, $1) WHERE id = $2', [now, id]);
      else await db.rows('UPDATE users SET disabled_at = NULL WHERE id = $1', [id]);
      return db.first<UserRow>(`${SELECT_USER} WHERE u.id = $1`, [id]);
    },
    // Codes and devices go with the user (ON DELETE CASCADE).
    remove: async (id) => (await db.rows('DELETE FROM users WHERE id = $1 RETURNING id', [id])).length === 1,
    putEnrolmentCode: (userId, codeDigest, expiresAt, now) =>
      db.tx(async (c) => {
        await c.query('DELETE FROM enrolment_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
        await c.query(
          `INSERT INTO enrolment_codes (user_id, code_digest, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
          [userId, codeDigest, now, expiresAt],
        );
      }),
    redeemEnrolmentCode: (codeDigest, now, device) =>
      db.tx(async (c): Promise<RedeemResult> => {
        const taken = await c.query<{ user_id: number }>(
          `UPDATE enrolment_codes e SET used_at = $2
           FROM users u
           WHERE e.code_digest = $1 AND e.used_at IS NULL AND e.expires_at > $2 COLLATE "C"
             AND u.id = e.user_id AND u.disabled_at IS NULL
           RETURNING e.user_id`,
          [codeDigest, now],
        );
        const userId = taken.rows[0]?.user_id;
        if (userId === undefined) return { ok: false, reason: await refusal(c, codeDigest, now) };
        await c.query(
          'INSERT INTO devices (id, user_id, token_digest, name, created_at) VALUES ($1, $2, $3, $4, $5)',
          [device.id, userId, device.token_digest, device.name, now],
        );
        const row = (await c.query<DeviceRow>(`${SELECT_DEVICE} WHERE d.id = $1`, [device.id])).rows[0]!;
        return { ok: true, user: (await userById(c, userId))!, device: row };
      }),
    deviceAuth: (tokenDigest) => db.first<DeviceAuthRow>(DEVICE_AUTH, [tokenDigest], 'device_auth'),
    devices: (userId) =>
      userId === undefined
        ? db.rows<DeviceRow>(`${SELECT_DEVICE} ORDER BY d.created_at, d.id`)
        : db.rows<DeviceRow>(`${SELECT_DEVICE} WHERE d.user_id = $1 ORDER BY d.created_at, d.id`, [userId]),
    revokeDevice: async (id, now) => {
      const row = await db.first<{ revoked: boolean }>(
        `WITH r AS (UPDATE devices SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id)
         SELECT EXISTS (SELECT 1 FROM r) AS revoked FROM devices WHERE id = $1`,
        [id, now],
      );
      if (!row) return 'missing';
      return row.revoked ? 'revoked' : 'already';
    },
    // A device's last use may be lost with a crash of the database (the relaxed pool): the next call sets it.
    touchDevice: async (id, now) => {
      await db.relaxedRows('UPDATE devices SET last_seen_at = $2 WHERE id = $1', [id, now]);
    },
  };
}

/** Why the conditional UPDATE changed nothing, read in the same transaction. */
async function refusal(
  q: Queryable,
  codeDigest: string,
  now: string,
): Promise<Exclude<RedeemResult, { ok: true }>['reason']> {
  const code = (
    await q.query<{ used: boolean; expired: boolean; disabled: boolean }>(
      `SELECT e.used_at IS NOT NULL AS used, e.expires_at <= $2 COLLATE "C" AS expired,
              u.disabled_at IS NOT NULL AS disabled
       FROM enrolment_codes e JOIN users u ON u.id = e.user_id WHERE e.code_digest = $1`,
      [codeDigest, now],
    )
  ).rows[0];
  if (!code) return 'unknown';
  if (code.used) return 'used';
  if (code.expired) return 'expired';
  if (code.disabled) return 'disabled';
  // Changed between the two statements (a concurrent redeem committed just now): it is used.
  return 'used';
}
