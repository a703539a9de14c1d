// Recipient postal codes that make a sandbox carrier misbehave on purpose, like payment test cards, so that
// integrators can exercise `unavailable[]` and 503 without a real outage. Documented in docs/api.md.
// The simulators read them; no adapter knows about them (the adapters stay exactly the live protocol).
// Each carrier owns one block of ten: 9999x1 hangs, 9999x2 fails, 9999x3 has no service (x per carrier).
import type { CarrierCode } from './types';

export type SandboxBehaviour = 'ok' | 'timeout' | 'error' | 'no_service';

/** Every carrier's block: a carrier added to CARRIER_CODES must add its row here (the type says so). */
export const CARRIER_TRIGGERS: Record<CarrierCode, { timeout: string; error: string; noService: string }> = {
  'russian-post': { timeout: '999901', error: '999902', noService: '999903' },
  cdek: { timeout: '999911', error: '999912', noService: '999913' },
  boxberry: { timeout: '999921', error: '999922', noService: '999923' },
  dpd: { timeout: '999931', error: '999932', noService: '999933' },
  dellin: { timeout: '999941', error: '999942', noService: '999943' },
  pek: { timeout: '999951', error: '999952', noService: '999953' },
  yandex: { timeout: '999961', error: '999962', noService: '999963' },
  // 5Post is quoted from its cached pickup-point catalogue, never called per quote: its simulator plants
  // points at these indexes instead (docs/carriers.md, "5Post", sandbox triggers).
  '5post': { timeout: '999971', error: '999972', noService: '999973' },
};

export const SANDBOX_TRIGGERS = {
  /** Every carrier hangs: the request costs the per-carrier timeout (or the deadline, if shorter), then 503. */
  allTimeout: '999990',
  /** Every carrier says it has no service: 503 rates_unavailable. */
  allNoService: '999999',
  russianPostTimeout: CARRIER_TRIGGERS['russian-post'].timeout,
  russianPostError: CARRIER_TRIGGERS['russian-post'].error,
  russianPostNoService: CARRIER_TRIGGERS['russian-post'].noService,
  cdekTimeout: CARRIER_TRIGGERS.cdek.timeout,
  cdekError: CARRIER_TRIGGERS.cdek.error,
  cdekNoService: CARRIER_TRIGGERS.cdek.noService,
  dpdTimeout: CARRIER_TRIGGERS.dpd.timeout,
  dpdError: CARRIER_TRIGGERS.dpd.error,
  dpdNoService: CARRIER_TRIGGERS.dpd.noService,
  dellinTimeout: CARRIER_TRIGGERS.dellin.timeout,
  dellinError: CARRIER_TRIGGERS.dellin.error,
  dellinNoService: CARRIER_TRIGGERS.dellin.noService,
  pekTimeout: CARRIER_TRIGGERS.pek.timeout,
  pekError: CARRIER_TRIGGERS.pek.error,
  pekNoService: CARRIER_TRIGGERS.pek.noService,
  yandexTimeout: CARRIER_TRIGGERS.yandex.timeout,
  yandexError: CARRIER_TRIGGERS.yandex.error,
  yandexNoService: CARRIER_TRIGGERS.yandex.noService,
} as const;

/** Every trigger code of every carrier: simulators accept them as valid indexes (they are in no directory). */
export const ALL_TRIGGER_CODES: ReadonlySet<string> = new Set([
  SANDBOX_TRIGGERS.allTimeout,
  SANDBOX_TRIGGERS.allNoService,
  ...Object.values(CARRIER_TRIGGERS).flatMap((t) => [t.timeout, t.error, t.noService]),
]);

export function sandboxBehaviour(
  carrier: CarrierCode,
  toPostalCode: string | null | undefined,
): SandboxBehaviour {
  if (toPostalCode === SANDBOX_TRIGGERS.allTimeout) return 'timeout';
  if (toPostalCode === SANDBOX_TRIGGERS.allNoService) return 'no_service';
  const own = CARRIER_TRIGGERS[carrier];
  if (toPostalCode === own.timeout) return 'timeout';
  if (toPostalCode === own.error) return 'error';
  if (toPostalCode === own.noService) return 'no_service';
  return 'ok';
}
