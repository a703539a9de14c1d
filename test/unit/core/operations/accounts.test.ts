import { describe, expect, it } from 'vitest';
import {
  OperationError,
  clearLimits,
  createAccount,
  listAccounts,
  setLimits,
  setThreshold,
  topup,
} from '../../../../core/operations';
import { freshFolder } from '../../../helpers/store-fixtures';

async function adminError(fn: () => unknown): Promise<OperationError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof OperationError) return error;
    throw error;
  }
  throw new Error('expected an OperationError');
}

describe('createAccount', () => {
  it('creates a free account with 100 requests by default', async () => {
    const { store, clock } = freshFolder();
    const acc = await createAccount(store, clock, { name: 'acme.shop-1_RU' });
    expect(acc).toMatchObject({ name: 'acme.shop-1_RU', tier: 'free', balance: 100, threshold: 'auto' }); // #9: 'auto' by default
    expect((await listAccounts(store, clock)).map((a) => a.name)).toEqual(['default', 'acme.shop-1_RU']);
  });

  it('accepts balance 0 and any whole balance up to 10^9, and writes the opening balance to the ledger', async () => {
    const { store, clock } = freshFolder();
    expect((await createAccount(store, clock, { name: 'zero', balance: 0 })).balance).toBe(0);
    expect((await createAccount(store, clock, { name: 'big', balance: 1_000_000_000 })).balance).toBe(
      1_000_000_000,
    );
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it.each([
    ['empty name', { name: '' }],
    ['65-character name', { name: 'a'.repeat(65) }],
    ['space in name', { name: 'my shop' }],
    ['Cyrillic name', { name: 'магазин' }],
    ['slash in name', { name: 'a/b' }],
    ['negative balance', { name: 'n', balance: -1 }],
    ['fractional balance', { name: 'n', balance: 1.5 }],
    ['balance above 10^9', { name: 'n', balance: 1_000_000_001 }],
    ['unknown field', { name: 'n', tier: 'paid' }],
  ])('rejects %s as invalid', async (_label, input) => {
    const { store, clock } = freshFolder();
    const error = await adminError(() => createAccount(store, clock, input as { name: string }));
    expect(error.code).toBe('invalid');
    expect(await store.accounts.list()).toHaveLength(1);
  });

  it('accepts a 64-character name', async () => {
    const { store, clock } = freshFolder();
    expect((await createAccount(store, clock, { name: 'a'.repeat(64) })).name).toHaveLength(64);
  });

  it('refuses a duplicate name with a conflict', async () => {
    const { store, clock } = freshFolder();
    const error = await adminError(() => createAccount(store, clock, { name: 'default' }));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('already exists');
  });
});

describe('topup', () => {
  it('adds the package, makes the account paid and remembers the package for "auto"', async () => {
    const { store, clock } = freshFolder();
    const acc = await topup(store, clock, { account: 'default', requests: 500 });
    expect(acc).toMatchObject({ balance: 600, tier: 'paid', last_package: 500 });
    expect(acc.limits).toEqual({ rps: 10, burst: 20, source: 'tier' });
    expect(await store.accounts.invariantViolations()).toEqual([]);
  });

  it.each([0, -1, 1.5, 1_000_000_001, Number.NaN])('rejects %s requests', async (requests) => {
    const { store, clock } = freshFolder();
    expect((await adminError(() => topup(store, clock, { account: 'default', requests }))).code).toBe(
      'invalid',
    );
    expect((await store.accounts.byName('default'))!.balance).toBe(100);
  });

  it('accepts the bounds 1 and 10^9', async () => {
    const { store, clock } = freshFolder();
    expect((await topup(store, clock, { account: 'default', requests: 1 })).balance).toBe(101);
    expect((await topup(store, clock, { account: 'default', requests: 1_000_000_000 })).balance).toBe(
      1_000_000_101,
    );
  });

  it('reports an unknown account as not_found', async () => {
    const { store, clock } = freshFolder();
    const error = await adminError(() => topup(store, clock, { account: 'ghost', requests: 1 }));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('No account named "ghost". See "accounts list".');
  });
});

describe('setLimits / clearLimits', () => {
  it('overrides the tier limits and clears back to them', async () => {
    const { store, clock } = freshFolder();
    expect((await setLimits(store, clock, { account: 'default', rps: 0.5, burst: 3 })).limits).toEqual({
      rps: 0.5,
      burst: 3,
      source: 'override',
    });
    // The listener reads the same row on every request: the override is visible through authLookup's columns too.
    expect(await store.accounts.byName('default')).toMatchObject({ override_rps: 0.5, override_burst: 3 });
    expect((await clearLimits(store, clock, { account: 'default' })).limits).toEqual({
      rps: 2,
      burst: 5,
      source: 'tier',
    });
    // Clearing twice is harmless.
    expect((await clearLimits(store, clock, { account: 'default' })).limits.source).toBe('tier');
  });

  it('accepts the bounds rps 10000 and burst 1..100000', async () => {
    const { store, clock } = freshFolder();
    expect(
      (await setLimits(store, clock, { account: 'default', rps: 10_000, burst: 100_000 })).limits.rps,
    ).toBe(10_000);
    expect((await setLimits(store, clock, { account: 'default', rps: 0.01, burst: 1 })).limits.burst).toBe(1);
  });

  it.each([
    { rps: 0, burst: 5 },
    { rps: -1, burst: 5 },
    { rps: 10_001, burst: 5 },
    { rps: 2, burst: 0 },
    { rps: 2, burst: 1.5 },
    { rps: 2, burst: 100_001 },
  ])('rejects %o', async (limits) => {
    const { store, clock } = freshFolder();
    expect((await adminError(() => setLimits(store, clock, { account: 'default', ...limits }))).code).toBe(
      'invalid',
    );
    expect((await store.accounts.byName('default'))!.override_rps).toBeNull();
  });

  it('reports an unknown account', async () => {
    const { store, clock } = freshFolder();
    expect((await adminError(() => setLimits(store, clock, { account: 'x', rps: 1, burst: 1 }))).code).toBe(
      'not_found',
    );
    expect((await adminError(() => clearLimits(store, clock, { account: 'x' }))).code).toBe('not_found');
  });
});

describe('setThreshold', () => {
  it.each(['100', '500', '1000', 'auto', 'off'] as const)('stores %s', async (threshold) => {
    const { store, clock } = freshFolder();
    expect((await setThreshold(store, clock, { account: 'default', threshold })).threshold).toBe(threshold);
  });

  it('rejects other values', async () => {
    const { store, clock } = freshFolder();
    for (const threshold of ['200', '', 'AUTO', '10%']) {
      const error = await adminError(() =>
        setThreshold(store, clock, { account: 'default', threshold: threshold as 'off' }),
      );
      expect(error.code).toBe('invalid');
    }
    expect((await store.accounts.byName('default'))!.threshold).toBe('auto'); // #9: the default
  });
});

describe('results', () => {
  it('are plain JSON (survive a JSON round trip unchanged)', async () => {
    const { store, clock } = freshFolder();
    const list = await listAccounts(store, clock);
    expect(JSON.parse(JSON.stringify(list))).toEqual(list);
  });
});
