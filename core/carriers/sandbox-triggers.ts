// Recipient postal codes that make a sandbox carrier misbehave on purpose, like payment test cards, so that
// integrators can exercise `unavailable[]` and 503 without a real outage. Documented in docs/api.md.
// The simulators read them; no adapter knows about them (the adapters stay exactly the live protocol).
// Each carrier owns one block of ten: 9999x1 hangs, 9999x2 fails, 9999x3 has no service (x per carrier).
import { CARRIER_DESCRIPTORS } from './built-in';
import type { SandboxTriggerBlock } from './descriptor';
import type { CarrierCode } from './types';

export type SandboxBehaviour = 'ok' | 'timeout' | 'error' | 'no_service';

/** Every carrier's block, as its descriptor declares it. */
export const CARRIER_TRIGGERS = Object.fromEntries(
  CARRIER_DESCRIPTORS.map((d) => [d.code, d.triggers]),
) as Record<CarrierCode, SandboxTriggerBlock>;

export const SANDBOX_TRIGGERS = {
  /** Every carrier hangs: the request costs the per-carrier timeout (or the deadline, if shorter), then 503. */
  allTimeout: '999990',
  /** Every carrier says it has no service: 503 rates_unavailable. */
  allNoService: '999999',
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
