// The money path through the store port (#18 item 1): holds on the balance, the charge as one atomic write
// (debit, ledger, stored reply, history, low-balance notice), concurrent charges that never overdraw, and a
// charge that survives a reopen.
import { describe, expect, it } from 'vitest';
import { thresholdRequests } from '../../../core/contract/low-balance';
import type { ChargeResult, ReserveResult } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { chargeInput, DAY_MS, historyRow, NOW, NOW_MS, replyBody, unique, useStore } from './harness';

type Held = Extract<ReserveResult, { ok: true }>;

function held(result: ReserveResult): Held {
  expect(result).toMatchObject({ ok: true });
  return result as Held;
}

const claimFor = (accountId: number, key: string, fingerprint: string, nowMs = NOW_MS + 1) => ({
  accountId,
  key,
  fingerprint,
  nowMs,
  retentionMs: DAY_MS,
  leaseMs: 30_000,
});

describe.each(STORE_IMPLEMENTATIONS)('money path ($name)', (impl) => {
  const fx = useStore(impl);

  describe('reserve / release', () => {
    it('holds no more than the balance, gives a hold back on release, and release is idempotent', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('hold'), 2, NOW);
      const first = held(await store.reserve(acc.id, 10));
      held(await store.reserve(acc.id, 10));
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });

      await first.release();
      const third = held(await store.reserve(acc.id, 10));
      // A second release of the same hold must not free the hold taken since.
      await first.release();
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });
      await third.release();
      await third.release();
      held(await store.reserve(acc.id, 10));
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });

      // A hold is not a charge.
      expect(await store.accounts.balance(acc.id)).toBe(2);
      expect(await store.accounts.invariantViolations()).toEqual([]);
    });

    it('refuses an account with nothing to hold', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('empty'), 0, NOW);
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });
    });

    it('bounds the holds of an account by maxInFlight', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('busy'), 100, NOW);
      const a = held(await store.reserve(acc.id, 2));
      held(await store.reserve(acc.id, 2));
      expect(await store.reserve(acc.id, 2)).toEqual({ ok: false, reason: 'too_many_in_flight' });
      await a.release();
      held(await store.reserve(acc.id, 2));
      expect(await store.reserve(acc.id, 2)).toEqual({ ok: false, reason: 'too_many_in_flight' });
    });

    it('keeps the holds of different accounts apart', async () => {
      const { store } = fx;
      const one = await store.accounts.create(unique('one'), 1, NOW);
      const two = await store.accounts.create(unique('two'), 1, NOW);
      held(await store.reserve(one.id, 1));
      expect(await store.reserve(one.id, 1)).toMatchObject({ ok: false });
      held(await store.reserve(two.id, 1));
    });

    it('grants exactly the balance to concurrent holds', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('race-hold'), 7, NOW);
      const results = await Promise.all(Array.from({ length: 21 }, () => store.reserve(acc.id, 1000)));
      expect(results.filter((r) => r.ok)).toHaveLength(7);
      for (const r of results) if (!r.ok) expect(r.reason).toBe('insufficient_balance');
    });
  });

  describe('charge', () => {
    it("gives the charged request's hold back with its debit: no moment where it is both debited and held", async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('hold-charge'), 2, NOW);
      const a = held(await store.reserve(acc.id, 10));
      const b = held(await store.reserve(acc.id, 10));
      expect(await store.charge(chargeInput(acc.id, { hold: a }))).toMatchObject({ ok: true, balance: 1 });
      // b holds the one request left…
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });
      await b.release();
      // …and a's hold went with the debit, before a.release(): the request left can be held at once.
      const c = held(await store.reserve(acc.id, 10));
      // a.release() afterwards gives back nothing more: c still holds the last request.
      await a.release();
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });
      await c.release();
      held(await store.reserve(acc.id, 10));
      expect(await store.accounts.invariantViolations()).toEqual([]);
    });

    it('leaves the hold of a charge that did not happen to its release', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('hold-gone'), 1, NOW);
      const a = held(await store.reserve(acc.id, 10));
      const gone = new AbortController();
      gone.abort();
      expect(await store.charge(chargeInput(acc.id, { hold: a, signal: gone.signal }))).toEqual({
        ok: false,
        reason: 'client_gone',
      });
      expect(await store.reserve(acc.id, 10)).toEqual({ ok: false, reason: 'insufficient_balance' });
      await a.release();
      held(await store.reserve(acc.id, 10));
    });

    it('debits one, builds the body with the new balance, stores the reply and the history row', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('payer'), 5, NOW);
      const marker = unique('Зеленоград');
      const requestId = unique('req');
      const result = await store.charge(
        chargeInput(acc.id, {
          requestId,
          idempotency: { key: 'idem-1', fingerprint: 'fp-1', createdAtMs: NOW_MS },
          history: (body) => historyRow(marker, requestId, body),
        }),
      );
      expect(result).toEqual({ ok: true, body: replyBody(4), balance: 4 });
      expect(await store.accounts.balance(acc.id)).toBe(4);
      expect(await store.accounts.invariantViolations()).toEqual([]);

      const rows = await store.quotes.search(marker);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ ...historyRow(marker, requestId, replyBody(4)) });
      expect(await store.quotes.byId(rows[0]!.id)).toEqual(rows[0]);

      const claim = await store.claimIdempotency(claimFor(acc.id, 'idem-1', 'fp-1'));
      expect(claim).toMatchObject({
        state: 'done',
        record: {
          account_id: acc.id,
          idem_key: 'idem-1',
          fingerprint: 'fp-1',
          body: replyBody(4),
          request_id: requestId,
          created_at_ms: NOW_MS,
        },
      });
    });

    it('charges without idempotency or history too', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('plain'), 2, NOW);
      expect(await store.charge(chargeInput(acc.id))).toMatchObject({ ok: true, balance: 1 });
      expect(await store.charge(chargeInput(acc.id))).toMatchObject({ ok: true, balance: 0 });
      expect(await store.accounts.balance(acc.id)).toBe(0);
      expect(await store.accounts.invariantViolations()).toEqual([]);
    });

    it('refuses an empty balance and writes nothing', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('broke'), 0, NOW, '100');
      const marker = unique('Нигде');
      const requestId = unique('req');
      const result = await store.charge(
        chargeInput(acc.id, {
          requestId,
          idempotency: { key: 'idem-broke', fingerprint: 'fp', createdAtMs: NOW_MS },
          history: (body) => historyRow(marker, requestId, body),
        }),
      );
      expect(result).toEqual({ ok: false, reason: 'insufficient_balance' });
      expect(await store.accounts.balance(acc.id)).toBe(0);
      expect(await store.accounts.invariantViolations()).toEqual([]);
      expect(await store.quotes.search(marker)).toEqual([]);
      expect(await store.notifications.list()).toEqual([]);
      expect(await store.claimIdempotency(claimFor(acc.id, 'idem-broke', 'fp'))).toMatchObject({
        state: 'claimed',
      });
    });

    it('charges nothing when the signal was aborted before the write', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('gone'), 3, NOW);
      const marker = unique('Ушёл');
      const requestId = unique('req');
      const controller = new AbortController();
      controller.abort();
      const result = await store.charge(
        chargeInput(acc.id, {
          requestId,
          signal: controller.signal,
          idempotency: { key: 'idem-gone', fingerprint: 'fp', createdAtMs: NOW_MS },
          history: (body) => historyRow(marker, requestId, body),
        }),
      );
      expect(result).toEqual({ ok: false, reason: 'client_gone' });
      expect(await store.accounts.balance(acc.id)).toBe(3);
      expect(await store.accounts.invariantViolations()).toEqual([]);
      expect(await store.quotes.search(marker)).toEqual([]);
      expect(await store.claimIdempotency(claimFor(acc.id, 'idem-gone', 'fp'))).toMatchObject({
        state: 'claimed',
      });
      // The same request id can still be charged once the client is back.
      expect(await store.charge(chargeInput(acc.id, { requestId }))).toMatchObject({ ok: true, balance: 2 });
    });
  });

  describe('concurrent charges', () => {
    it.each([1, 5, 40])(
      'a balance of %i meets three times as many charges: exactly that many pass',
      async (n) => {
        const { store } = fx;
        const acc = await store.accounts.create(unique('race'), n, NOW);
        const marker = unique('Гонка');
        const results: ChargeResult[] = await Promise.all(
          Array.from({ length: 3 * n }, (_, i) => {
            const requestId = unique(`race-${i}`);
            return store.charge(
              chargeInput(acc.id, {
                requestId,
                idempotency: { key: `race-key-${i}`, fingerprint: `fp-${i}`, createdAtMs: NOW_MS },
                history: (body) => historyRow(marker, requestId, body),
              }),
            );
          }),
        );
        const ok = results.filter((r): r is Extract<ChargeResult, { ok: true }> => r.ok);
        expect(ok).toHaveLength(n);
        for (const r of results) if (!r.ok) expect(r.reason).toBe('insufficient_balance');
        // Every successful charge saw its own balance: n-1 … 0, each once.
        expect(ok.map((r) => r.balance).sort((a, b) => a - b)).toEqual(
          Array.from({ length: n }, (_, i) => i),
        );
        for (const r of ok) expect(r.body).toBe(replyBody(r.balance));
        expect(await store.accounts.balance(acc.id)).toBe(0);
        expect(await store.accounts.invariantViolations()).toEqual([]);
        expect(await store.quotes.search(marker, 10 * n + 10)).toHaveLength(n);
      },
    );

    it('keeps concurrent charges of several accounts apart', async () => {
      const { store } = fx;
      const a = await store.accounts.create(unique('ra'), 4, NOW);
      const b = await store.accounts.create(unique('rb'), 9, NOW);
      const runs = Array.from({ length: 30 }, (_, i) => store.charge(chargeInput(i % 2 === 0 ? a.id : b.id)));
      const results = await Promise.all(runs);
      expect(results.filter((r) => r.ok)).toHaveLength(4 + 9);
      expect(await store.accounts.balance(a.id)).toBe(0);
      expect(await store.accounts.balance(b.id)).toBe(0);
      expect(await store.accounts.invariantViolations()).toEqual([]);
    });
  });

  describe('low-balance notification', () => {
    it('fires once, on the charge that crosses a fixed threshold', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('low'), 102, NOW, 'off');
      const withThreshold = await store.accounts.setThreshold(acc.id, '100');
      const limit = thresholdRequests(withThreshold!);
      expect(limit).toBe(100);

      const events = [];
      for (let i = 0; i < 4; i++) {
        const r = await store.charge(chargeInput(acc.id));
        if (!r.ok) throw new Error(`charge ${i} refused: ${r.reason}`);
        events.push(r.lowBalance);
      }
      // 102 → 101 (above), → 100 (crosses), → 99, → 98 (already low).
      expect(events[0]).toBeUndefined();
      expect(events[1]).toEqual({
        accountId: acc.id,
        accountName: acc.name,
        threshold: 100,
        balance: 100,
        at: NOW,
      });
      expect(events[2]).toBeUndefined();
      expect(events[3]).toBeUndefined();

      const notes = (await store.notifications.list()).filter((n) => n.account_id === acc.id);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({
        account_id: acc.id,
        account_name: acc.name,
        kind: 'low_balance',
        threshold: 100,
        balance: 100,
        created_at: NOW,
      });
    });

    it('fires again on the next descent after a top-up, at the auto threshold of the package', async () => {
      const { store } = fx;
      const created = await store.accounts.create(unique('auto'), 0, NOW, 'auto');
      const topped = await store.accounts.topup(created.id, 20, NOW);
      const limit = thresholdRequests(topped!);
      expect(limit).toBe(2);

      const fired: number[] = [];
      for (let i = 0; i < 20; i++) {
        const r = await store.charge(chargeInput(created.id));
        if (r.ok && r.lowBalance) fired.push(r.lowBalance.balance);
      }
      expect(fired).toEqual([2]);

      await store.accounts.topup(created.id, 20, NOW);
      for (let i = 0; i < 19; i++) {
        const r = await store.charge(chargeInput(created.id));
        if (r.ok && r.lowBalance) fired.push(r.lowBalance.balance);
      }
      expect(fired).toEqual([2, 2]);
      const notes = (await store.notifications.list()).filter((n) => n.account_id === created.id);
      expect(notes.map((n) => [n.threshold, n.balance])).toEqual([
        [2, 2],
        [2, 2],
      ]);
    });

    it('never fires with the threshold off', async () => {
      const { store } = fx;
      const acc = await store.accounts.create(unique('quiet'), 3, NOW, 'off');
      for (let i = 0; i < 3; i++)
        expect(await store.charge(chargeInput(acc.id))).not.toHaveProperty('lowBalance');
      expect((await store.notifications.list()).filter((n) => n.account_id === acc.id)).toEqual([]);
    });
  });

  describe('durability', () => {
    it('keeps a settled charge, its reply and its history across a reopen', async () => {
      const acc = await fx.store.accounts.create(unique('durable'), 10, NOW);
      const marker = unique('Надёжно');
      const requestId = unique('req');
      const result = await fx.store.charge(
        chargeInput(acc.id, {
          requestId,
          idempotency: { key: 'idem-durable', fingerprint: 'fp', createdAtMs: NOW_MS },
          history: (body) => historyRow(marker, requestId, body),
        }),
      );
      expect(result).toMatchObject({ ok: true, balance: 9 });

      const reopened = await fx.opened.reopen();
      expect(await reopened.accounts.balance(acc.id)).toBe(9);
      expect(await reopened.accounts.invariantViolations()).toEqual([]);
      expect(await reopened.quotes.search(marker)).toHaveLength(1);
      expect(await reopened.claimIdempotency(claimFor(acc.id, 'idem-durable', 'fp'))).toMatchObject({
        state: 'done',
        record: { body: replyBody(9), request_id: requestId },
      });
    });
  });
});
