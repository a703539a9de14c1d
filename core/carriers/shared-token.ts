// A carrier's access token shared by the instances of a company server (CDEK's OAuth token, 5Post's JWT):
// one instance asks the carrier, under the store's exclusive section for that token, and keeps it in the
// database; the others take it from there. Without a company store (the desk) each adapter keeps its own.
// The store being away never costs a quote its token: the adapter then asks the carrier itself.
import { createHash } from 'node:crypto';
import type { CarrierCoordinationStore } from '../store/port';

export interface SharedTokenSlot {
  coordination: CarrierCoordinationStore;
  /** Names the carrier, host and credentials (the secret only as a hash): a token is theirs alone. */
  name: string;
}

export interface HeldToken {
  token: string;
  refreshAtMs: number;
}

/** The slot's name: the secret never appears in it, only its hash, so a new secret means a new token. */
export function tokenSlotName(carrier: string, baseUrl: string, clientId: string, secret: string): string {
  const digest = createHash('sha256').update(secret).digest('hex').slice(0, 16);
  return `${carrier} ${baseUrl} ${clientId} ${digest}`;
}

/**
 * A token for the slot: the one another instance keeps (unless it is `refused`), else `fetch`'s, which is then
 * kept for the others. `fetch` asks the carrier and returns the token it got, or null when it failed.
 */
export async function sharedToken(
  slot: SharedTokenSlot,
  nowMs: () => number,
  refused: string | null,
  fetch: () => Promise<HeldToken | null>,
): Promise<HeldToken | null> {
  const { coordination, name } = slot;
  let fetched = false;
  try {
    return await coordination.exclusive(`token ${name}`, async () => {
      const kept = await coordination.token(name, nowMs());
      if (kept && kept.token !== refused) return kept;
      fetched = true;
      const got = await fetch();
      if (got) await coordination.putToken(name, got.token, got.refreshAtMs).catch(() => {});
      return got;
    });
  } catch (error) {
    // The company store could not be asked: this instance asks the carrier itself (once).
    if (fetched) throw error;
    return fetch();
  }
}
