// POST /desk/v1/enrol: a one-time code → this desk's own device token. The code is single use and
// short-lived (the store trades it atomically, even racing on another instance); the token is shown once,
// in this answer, and only its SHA-256 is stored. Neither is ever logged.
import {
  digestDeviceToken,
  digestEnrolmentCode,
  generateDeviceId,
  generateDeviceToken,
} from '../../keys/desk-credentials';
import type { RedeemResult, Store } from '../../store/port';
import type { WallClock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import type { EnrolRequest, EnrolResponse } from '../wire';

type Refusal = Extract<RedeemResult, { ok: false }>['reason'];

/** What the desk shows for a refused code (the UI may word it itself from the reason in `message`). */
export const ENROL_REFUSALS: Record<Refusal, string> = {
  unknown: 'This enrolment code is not known: check it, or ask the administrator for a new one.',
  used: 'This enrolment code was already used: ask the administrator for a new one.',
  expired: 'This enrolment code has expired: ask the administrator for a new one.',
  disabled: 'This user is disabled on the company server.',
};

export type EnrolOutcome = { ok: true; value: EnrolResponse } | { ok: false; reason: Refusal };

export async function enrolDevice(
  store: Pick<Store, 'users' | 'audit'>,
  clock: WallClock,
  logger: Logger,
  request: EnrolRequest,
): Promise<EnrolOutcome> {
  const token = generateDeviceToken();
  const now = clock.now().toISOString();
  const result = await store.users.redeemEnrolmentCode(digestEnrolmentCode(request.code), now, {
    id: generateDeviceId(),
    token_digest: digestDeviceToken(token),
    name: request.device_name,
  });
  if (!result.ok) {
    logger.warn('desk enrolment refused', { reason: result.reason });
    return { ok: false, reason: result.reason };
  }
  const { user, device } = result;
  logger.info('desk enrolled', { user: user.name, device: device.id, device_name: device.name });
  // Who got a device is an admin-visible change like any other (never the token or the code).
  await store.audit
    .append({
      at: now,
      actor_kind: 'user',
      actor: user.name,
      action: 'devices:enrol',
      target: device.id,
      detail_json: JSON.stringify({ device_name: device.name }),
    })
    .catch((err: unknown) => logger.warn('enrolment not written to the audit log', { error: String(err) }));
  return { ok: true, value: { token, device_id: device.id, user: user.name, role: user.role } };
}
