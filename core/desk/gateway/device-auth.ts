// Who a gateway call comes from: the device token (Authorization: Bearer rdd_…) → its SHA-256 → the store's
// active device of an enabled user. Nothing else is trusted: no session, no cookie. A token is only ever
// digested here, never logged or kept.
import type { IncomingMessage } from 'node:http';
import { DEVICE_TOKEN_PATTERN, digestDeviceToken } from '../../keys/desk-credentials';
import type { DeviceAuthRow, Store } from '../../store/port';
import type { Logger } from '../../util/logger';

/** A device's last-seen date is written at most this often (UsersStore.touchDevice asks callers to throttle). */
export const TOUCH_INTERVAL_MS = 60_000;

/** The token of exactly one `Authorization: Bearer …` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const values: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'authorization') values.push(raw[i + 1]!);
  }
  if (values.length !== 1) return undefined;
  const m = /^Bearer +(\S+)\s*$/i.exec(values[0]!);
  return m ? m[1] : undefined;
}

export interface AuthenticatedDevice {
  device: DeviceAuthRow;
  /** SHA-256 hex of the token: what the store knows it by. */
  tokenDigest: string;
}

/** The device a request is authenticated as; undefined for a missing, malformed, unknown or revoked token. */
export async function authenticateDevice(
  store: Pick<Store, 'users'>,
  req: IncomingMessage,
): Promise<AuthenticatedDevice | undefined> {
  const token = bearerToken(req);
  // A value that cannot be a token costs no query.
  if (token === undefined || !DEVICE_TOKEN_PATTERN.test(token)) return undefined;
  const tokenDigest = digestDeviceToken(token);
  const device = await store.users.deviceAuth(tokenDigest);
  return device ? { device, tokenDigest } : undefined;
}

/** Records a device's use at most once a minute per device, in the background. */
export class DeviceTouch {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly store: Pick<Store, 'users'>,
    private readonly logger: Logger,
    private readonly nowMs: () => number,
    private readonly nowIso: () => string,
  ) {}

  touch(deviceId: string): void {
    const now = this.nowMs();
    const last = this.last.get(deviceId);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    this.last.set(deviceId, now);
    this.store.users
      .touchDevice(deviceId, this.nowIso())
      .catch((err: unknown) =>
        this.logger.warn('device use not recorded', { device: deviceId, error: String(err) }),
      );
  }
}
