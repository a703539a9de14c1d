// Resale rules through the operations (#21), on both stores: an account by name or the desk, carriers that
// exist, the whole rule replaced, the bounds refused with their reason, and the audit entries.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OperationError, runStore, type StoreContext } from '../../../../core/operations';
import type { Store } from '../../../../core/store/port';
import { STORE_IMPLEMENTATIONS, type OpenedStore } from '../../../contract/store/implementations';
import { TestClock } from '../../../helpers/store-fixtures';

async function operationError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

describe.each(STORE_IMPLEMENTATIONS.map((impl) => [impl.name, impl] as const))(
  'pricing on %s',
  (_n, impl) => {
    let opened: OpenedStore;
    let store: Store;
    let clock: TestClock;
    const ctx = (): StoreContext => ({ store, clock, actor: { kind: 'cli', name: 'ops' } });

    beforeEach(async () => {
      clock = new TestClock();
      opened = await impl.open();
      store = opened.store;
      await runStore(ctx(), 'accounts:create', { name: 'shop-1', balance: 10 });
    });
    afterEach(() => opened.cleanup());

    it('sets, lists and removes rules of an account and of the desk, naming the account', async () => {
      const set = await runStore(ctx(), 'pricing:set', {
        account: 'shop-1',
        carrier: 'CDEK ',
        markup_percent: 12.5,
        packaging_kopecks: 3_000,
        min_kopecks: 30_000,
        rounding: '10',
      });
      const id = (await store.accounts.byName('shop-1'))!.id;
      expect(set).toEqual({
        account: 'shop-1',
        account_id: id,
        carrier: 'cdek',
        markup_percent: 12.5,
        markup_kopecks: 0,
        packaging_kopecks: 3_000,
        min_kopecks: 30_000,
        max_kopecks: null,
        rounding: '10',
        replaced: false,
      });
      await runStore(ctx(), 'pricing:set', { account: null, carrier: null, markup_kopecks: 10_000 });
      // The whole rule is replaced: what is left out is none, not what was there.
      const again = await runStore(ctx(), 'pricing:set', {
        account: 'shop-1',
        carrier: 'cdek',
        markup_percent: 5,
      });
      expect(again).toMatchObject({
        replaced: true,
        packaging_kopecks: 0,
        min_kopecks: null,
        rounding: 'none',
      });

      expect(
        (await runStore(ctx(), 'pricing:list', undefined)).map((r) => [
          r.account,
          r.carrier,
          r.markup_percent,
          r.markup_kopecks,
        ]),
      ).toEqual([
        [null, null, 0, 10_000],
        ['shop-1', 'cdek', 5, 0],
      ]);
      expect(await store.pricing.forAccount(id)).toEqual([expect.objectContaining({ markup_percent: 5 })]);

      const removed = await runStore(ctx(), 'pricing:remove', { account: 'shop-1', carrier: 'cdek' });
      expect(removed).toMatchObject({ account: 'shop-1', carrier: 'cdek', markup_percent: 5 });
      const none = await operationError(() =>
        runStore(ctx(), 'pricing:remove', { account: 'shop-1', carrier: 'cdek' }),
      );
      expect(none.code).toBe('not_found');
      expect(none.message).toContain('shop-1 / cdek');
    });

    it('refuses an unknown account, an unknown carrier and terms out of bounds, storing nothing', async () => {
      const account = await operationError(() =>
        runStore(ctx(), 'pricing:set', { account: 'nobody', carrier: null, markup_percent: 5 }),
      );
      expect(account.code).toBe('not_found');
      const carrier = await operationError(() =>
        runStore(ctx(), 'pricing:set', { account: null, carrier: 'cdk', markup_percent: 5 }),
      );
      expect([carrier.code, carrier.message]).toEqual([
        'invalid',
        expect.stringContaining('unknown carrier "cdk"'),
      ]);
      for (const [terms, says] of [
        [{ markup_percent: 12.345 }, 'two decimals'],
        [{ min_kopecks: 50_000, max_kopecks: 40_000 }, 'below the minimum'],
        [{ rounding: '10', min_kopecks: 29_950 }, 'multiple of the rounding step'],
        [{ markup_percent: -1 }, 'markup_percent'],
        [{ rounding: '3' }, 'rounding'],
      ] as const) {
        const error = await operationError(() =>
          runStore(ctx(), 'pricing:set', { account: null, carrier: null, ...terms }),
        );
        expect([error.code, error.message]).toEqual(['invalid', expect.stringContaining(says)]);
      }
      expect(await runStore(ctx(), 'pricing:list', undefined)).toEqual([]);
    });

    it('takes a rate card’s code as a carrier', async () => {
      await store.rateCards.replace(
        {
          code: 'local-courier',
          name: 'Курьер',
          volumetric_divisor: 5000,
          created_at: clock.now().toISOString(),
        },
        [],
      );
      await expect(
        runStore(ctx(), 'pricing:set', { account: null, carrier: 'local-courier', markup_percent: 1 }),
      ).resolves.toMatchObject({ carrier: 'local-courier' });
    });

    it('writes who set and removed a rule, and the terms, to the audit log', async () => {
      await runStore(ctx(), 'pricing:set', {
        account: 'shop-1',
        carrier: null,
        markup_percent: 7.5,
        rounding: '5',
      });
      await runStore(ctx(), 'pricing:remove', { account: 'shop-1', carrier: null });
      const entries = (await store.audit.search({ limit: 10, offset: 0 })).filter((e) =>
        e.action.startsWith('pricing:'),
      );
      expect(
        entries.map((e) => [
          e.actor,
          e.action,
          e.target,
          JSON.parse(e.detail_json) as Record<string, unknown>,
        ]),
      ).toEqual([
        [
          'ops',
          'pricing:remove',
          'shop-1 / *',
          expect.objectContaining({ markup_percent: 7.5, rounding: '5' }),
        ],
        [
          'ops',
          'pricing:set',
          'shop-1 / *',
          {
            markup_percent: 7.5,
            markup_kopecks: 0,
            packaging_kopecks: 0,
            min_kopecks: null,
            max_kopecks: null,
            rounding: '5',
            replaced: false,
          },
        ],
      ]);
    });
  },
);
