// Idempotency claims through the store port: who runs a keyed request, what a retry gets (the stored reply
// byte for byte, a conflict, a mismatch), leases that expire with a dead holder, retention and the purge.
import { describe, expect, it } from 'vitest';
import type { ClaimResult, IdempotencyClaim } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { chargeInput, DAY_MS, NOW, NOW_MS, replyBody, unique, useStore } from './harness';

type Claimed = Extract<ClaimResult, { state: 'claimed' }>;

function claimed(result: ClaimResult): Claimed {
  expect(result.state).toBe('claimed');
  return result as Claimed;
}

describe.each(STORE_IMPLEMENTATIONS)('idempotency ($name)', (impl) => {
  const fx = useStore(impl);

  async function account(balance = 10): Promise<number> {
    return (await fx.store.accounts.create(unique('idem'), balance, NOW)).id;
  }

  const claim = (
    accountId: number,
    key: string,
    fingerprint: string,
    extra: Partial<IdempotencyClaim> = {},
  ) =>
    fx.store.claimIdempotency({
      accountId,
      key,
      fingerprint,
      nowMs: NOW_MS,
      retentionMs: DAY_MS,
      leaseMs: 30_000,
      ...extra,
    });

  /** Runs the keyed request to completion: claim, charge with the key, release. */
  async function complete(accountId: number, key: string, fingerprint: string, createdAtMs = NOW_MS) {
    const mine = claimed(await claim(accountId, key, fingerprint, { nowMs: createdAtMs }));
    const requestId = unique('req');
    const charged = await fx.store.charge(
      chargeInput(accountId, { requestId, idempotency: { key, fingerprint, createdAtMs } }),
    );
    await mine.release();
    if (!charged.ok) throw new Error(`charge refused: ${charged.reason}`);
    return { requestId, body: charged.body };
  }

  it('gives the first claim the run, the same request in flight a conflict, another request a mismatch', async () => {
    const acc = await account();
    const first = claimed(await claim(acc, 'k', 'fp-a'));
    expect(await claim(acc, 'k', 'fp-a', { nowMs: NOW_MS + 10 })).toEqual({ state: 'in_flight' });
    expect(await claim(acc, 'k', 'fp-b', { nowMs: NOW_MS + 10 })).toEqual({ state: 'mismatch' });
    // Released without a charge (the request failed): the key is free again.
    await first.release();
    await claimed(await claim(acc, 'k', 'fp-a', { nowMs: NOW_MS + 20 })).release();
    await claimed(await claim(acc, 'k', 'fp-b', { nowMs: NOW_MS + 30 })).release();
  });

  it('answers a completed key with its stored reply byte for byte, and a different request with mismatch', async () => {
    const acc = await account(10);
    const { requestId, body } = await complete(acc, 'order-17', 'fp-17');
    expect(body).toBe(replyBody(9));

    const again = await claim(acc, 'order-17', 'fp-17', { nowMs: NOW_MS + 1000 });
    expect(again.state).toBe('done');
    if (again.state !== 'done') return;
    expect(again.record.body).toBe(body);
    expect(Buffer.from(again.record.body, 'utf8').equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(again.record).toMatchObject({
      account_id: acc,
      idem_key: 'order-17',
      fingerprint: 'fp-17',
      request_id: requestId,
      created_at_ms: NOW_MS,
    });
    expect(typeof again.record.status).toBe('number');

    expect(await claim(acc, 'order-17', 'fp-other', { nowMs: NOW_MS + 1000 })).toEqual({ state: 'mismatch' });
    // Neither answer charged anything.
    expect(await fx.store.accounts.balance(acc)).toBe(9);
  });

  it('lets a claim whose lease expired be taken over, and the old holder cannot free the new one', async () => {
    const acc = await account();
    const old = claimed(await claim(acc, 'lease', 'fp', { nowMs: NOW_MS, leaseMs: 50 }));
    expect(await claim(acc, 'lease', 'fp', { nowMs: NOW_MS + 49, leaseMs: 50 })).toEqual({
      state: 'in_flight',
    });
    const taken = claimed(await claim(acc, 'lease', 'fp', { nowMs: NOW_MS + 51, leaseMs: 50 }));
    // The dead holder's late release must not free the new holder's claim.
    await old.release();
    expect(await claim(acc, 'lease', 'fp', { nowMs: NOW_MS + 60, leaseMs: 50 })).toEqual({
      state: 'in_flight',
    });
    await taken.release();
    await claimed(await claim(acc, 'lease', 'fp', { nowMs: NOW_MS + 70, leaseMs: 50 })).release();
  });

  it('lets an expired lease be taken over by a different request too', async () => {
    const acc = await account();
    claimed(await claim(acc, 'lease2', 'fp-a', { nowMs: NOW_MS, leaseMs: 50 }));
    expect(await claim(acc, 'lease2', 'fp-b', { nowMs: NOW_MS + 10, leaseMs: 50 })).toEqual({
      state: 'mismatch',
    });
    await claimed(await claim(acc, 'lease2', 'fp-b', { nowMs: NOW_MS + 51, leaseMs: 50 })).release();
  });

  it('forgets a completed record older than the retention: the key is new again', async () => {
    const acc = await account(10);
    const retentionMs = 60_000;
    await complete(acc, 'old', 'fp-1', NOW_MS);
    expect((await claim(acc, 'old', 'fp-1', { nowMs: NOW_MS + retentionMs - 1, retentionMs })).state).toBe(
      'done',
    );
    expect((await claim(acc, 'old', 'fp-2', { nowMs: NOW_MS + retentionMs - 1, retentionMs })).state).toBe(
      'mismatch',
    );

    // Past retention: claimed by a new request under the same key, which then stores its own reply.
    const later = NOW_MS + retentionMs + 1;
    const fresh = claimed(await claim(acc, 'old', 'fp-2', { nowMs: later, retentionMs }));
    const requestId = unique('req');
    const charged = await fx.store.charge(
      chargeInput(acc, { requestId, idempotency: { key: 'old', fingerprint: 'fp-2', createdAtMs: later } }),
    );
    await fresh.release();
    expect(charged).toMatchObject({ ok: true, balance: 8 });
    const now = await claim(acc, 'old', 'fp-2', { nowMs: later + 1, retentionMs });
    expect(now).toMatchObject({ state: 'done', record: { fingerprint: 'fp-2', request_id: requestId } });
  });

  it('purges completed records created before a time, and counts them', async () => {
    const acc = await account(10);
    await complete(acc, 'p1', 'fp', NOW_MS);
    await complete(acc, 'p2', 'fp', NOW_MS + 10);
    await complete(acc, 'p3', 'fp', NOW_MS + 1000);

    expect(await fx.store.purgeIdempotencyBefore(NOW_MS + 500)).toBe(2);
    const later = { nowMs: NOW_MS + 2000 };
    await claimed(await claim(acc, 'p1', 'fp', later)).release();
    await claimed(await claim(acc, 'p2', 'fp', later)).release();
    expect((await claim(acc, 'p3', 'fp', later)).state).toBe('done');
    expect(await fx.store.purgeIdempotencyBefore(NOW_MS + 500)).toBe(0);
    // Purging records is not refunding requests.
    expect(await fx.store.accounts.balance(acc)).toBe(7);
    expect(await fx.store.accounts.invariantViolations()).toEqual([]);
  });

  it('scopes keys per account', async () => {
    const a = await account();
    const b = await account();
    const heldByA = claimed(await claim(a, 'shared', 'fp-a'));
    const heldByB = claimed(await claim(b, 'shared', 'fp-b'));
    await heldByA.release();
    await heldByB.release();

    await complete(a, 'done-key', 'fp');
    await claimed(await claim(b, 'done-key', 'fp')).release();
    await claimed(await claim(b, 'done-key', 'another')).release();
  });

  it('gives exactly one of many concurrent claims of one key the run', async () => {
    const acc = await account();
    const results = await Promise.all(Array.from({ length: 10 }, () => claim(acc, 'same', 'fp')));
    expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'in_flight')).toHaveLength(9);
  });

  it('charges a key completed meanwhile not again: the charge answers the stored reply instead', async () => {
    const acc = await account(10);
    // The first holder's lease expired while it still ran (a laptop asleep), a second request took the key over
    // and completed; the first one's charge must not debit again.
    const stale = claimed(await claim(acc, 'late', 'fp-late', { leaseMs: 50 }));
    const { requestId, body } = await complete(acc, 'late', 'fp-late', NOW_MS + 100);
    const second = await fx.store.charge(
      chargeInput(acc, {
        requestId: unique('req'),
        idempotency: {
          key: 'late',
          fingerprint: 'fp-late',
          createdAtMs: NOW_MS + 200,
          notBeforeMs: NOW_MS - DAY_MS,
        },
      }),
    );
    await stale.release();
    expect(second.ok).toBe(false);
    if (second.ok || second.reason !== 'already_done')
      throw new Error(`expected already_done, got ${JSON.stringify(second)}`);
    expect(second.record.body).toBe(body);
    expect(second.record.request_id).toBe(requestId);
    expect(await fx.store.accounts.balance(acc)).toBe(9);
    expect(await fx.store.accounts.invariantViolations()).toEqual([]);
  });

  it('charges a key again once its record is past retention, by the same boundary as the claim', async () => {
    const acc = await account(10);
    await complete(acc, 'old', 'fp-old', NOW_MS);
    // Exactly the retention later the claim says the key is new again; the charge must agree and debit.
    const later = NOW_MS + DAY_MS;
    await claimed(await claim(acc, 'old', 'fp-old', { nowMs: later })).release();
    const again = await fx.store.charge(
      chargeInput(acc, {
        requestId: unique('req'),
        idempotency: { key: 'old', fingerprint: 'fp-old', createdAtMs: later, notBeforeMs: later - DAY_MS },
      }),
    );
    expect(again.ok).toBe(true);
    expect(await fx.store.accounts.balance(acc)).toBe(8);
  });
});
