// A carrier's own request quota (PEK: 100 a minute per login) as a sliding window with fair shares, decided
// the same way wherever the window is kept: in this process (pek/rate-limit.ts) or in a company database
// shared by N instances (store/postgres/coordination.ts), which passes the slots it holds and its own clock.

export interface WindowSlot {
  /** When the request was let through (ms, on the keeper's clock). */
  at: number;
  asker: string;
}

export interface WindowRule {
  limit: number;
  windowMs: number;
}

export type SlotDecision =
  | { ok: true }
  /** waitMs: until the slot that frees first (the asker's own oldest while it is over its share, else anyone's). */
  | { ok: false; waitMs: number; ownFull: boolean; share: number };

/** How much of the window one asker may hold: its fair share, and at most half while it is the only one. */
export function fairShare(limit: number, askers: number): number {
  return Math.max(1, Math.floor(limit / Math.max(2, askers)));
}

/** `live`: the slots of the last windowMs, oldest first (older ones already dropped). */
export function decideSlot(
  live: readonly WindowSlot[],
  asker: string,
  rule: WindowRule,
  nowMs: number,
): SlotDecision {
  const mine = live.filter((s) => s.asker === asker);
  const askers = new Set([asker, ...live.map((s) => s.asker)]).size;
  const share = fairShare(rule.limit, askers);
  if (live.length < rule.limit && mine.length < share) return { ok: true };
  const ownFull = mine.length >= share;
  const waitMs = (ownFull ? mine[0]!.at : live[0]!.at) + rule.windowMs - nowMs;
  return { ok: false, waitMs, ownFull, share };
}
