// Recipient postal codes that make a sandbox carrier misbehave on purpose, like payment test cards, so that
// integrators can exercise `unavailable[]` and 503 without a real outage. Documented in docs/api.md.
// The simulators read them; no adapter knows about them (the adapters stay exactly the live protocol).
export const SANDBOX_TRIGGERS = {
  /** Every carrier hangs: the request costs the per-carrier timeout (or the deadline, if shorter), then 503. */
  allTimeout: '999990',
  /** Every carrier says it has no service: 503 rates_unavailable. */
  allNoService: '999999',
  russianPostTimeout: '999901',
  russianPostError: '999902',
  russianPostNoService: '999903',
  cdekTimeout: '999911',
  cdekError: '999912',
  cdekNoService: '999913',
} as const;

export type SandboxBehaviour = 'ok' | 'timeout' | 'error' | 'no_service';

export function sandboxBehaviour(
  carrier: 'russian-post' | 'cdek',
  toPostalCode: string | null | undefined,
): SandboxBehaviour {
  const t = SANDBOX_TRIGGERS;
  switch (toPostalCode) {
    case t.allTimeout:
      return 'timeout';
    case t.allNoService:
      return 'no_service';
    case carrier === 'russian-post' ? t.russianPostTimeout : t.cdekTimeout:
      return 'timeout';
    case carrier === 'russian-post' ? t.russianPostError : t.cdekError:
      return 'error';
    case carrier === 'russian-post' ? t.russianPostNoService : t.cdekNoService:
      return 'no_service';
    default:
      return 'ok';
  }
}
