// API keys through the store port: the listener's joined lookup (account, tier, balance, limits), refusals
// inside the write, revocation seen by the very next lookup, imports and last use.
import { describe, expect, it } from 'vitest';
import { sameKeyName } from '../../../core/contract/operations/keys';
import type { ImportedKey } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { chargeInput, newKey, NOW, unique, useStore } from './harness';

const LATER = '2025-03-02T08:30:00.000Z';

describe.each(STORE_IMPLEMENTATIONS)('keys ($name)', (impl) => {
  const fx = useStore(impl);

  it('inserts a key and finds it by id, digest, list and the auth lookup', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 25, NOW);
    const key = newKey(acc.id);
    const inserted = await store.keys.insert(key, sameKeyName);
    expect(inserted).toEqual({ ok: true, row: { ...key, account_name: acc.name } });
    expect(await store.keys.byId(key.id)).toEqual({ ...key, account_name: acc.name });
    expect(await store.keys.byDigest(key.digest)).toEqual({ ...key, account_name: acc.name });
    expect(await store.keys.list(acc.id)).toEqual([{ ...key, account_name: acc.name }]);
    expect(await store.keys.authLookup(key.digest)).toEqual({
      key_id: key.id,
      digest: key.digest,
      revoked_at: null,
      last_used_at: null,
      account_id: acc.id,
      tier: 'free',
      balance: 25,
      override_rps: null,
      override_burst: null,
    });
    expect(await store.keys.authLookup('no-such-digest')).toBeUndefined();
    expect(await store.keys.byId('no-such-id')).toBeUndefined();
    expect(await store.keys.byDigest('no-such-digest')).toBeUndefined();
  });

  it('shows account changes (limits, top-up, charge) on the next auth lookup', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 2, NOW);
    const key = newKey(acc.id);
    await store.keys.insert(key, sameKeyName);

    await store.accounts.setLimits(acc.id, 3, 6, NOW);
    expect(await store.keys.authLookup(key.digest)).toMatchObject({ override_rps: 3, override_burst: 6 });
    await store.accounts.topup(acc.id, 100, NOW);
    expect(await store.keys.authLookup(key.digest)).toMatchObject({ tier: 'paid', balance: 102 });
    await store.charge(chargeInput(acc.id));
    expect(await store.keys.authLookup(key.digest)).toMatchObject({ balance: 101 });
    await store.accounts.clearLimits(acc.id);
    expect(await store.keys.authLookup(key.digest)).toMatchObject({
      override_rps: null,
      override_burst: null,
    });
  });

  it('lists keys per account and all keys', async () => {
    const { store } = fx;
    const a = await store.accounts.create(unique('a'), 1, NOW);
    const b = await store.accounts.create(unique('b'), 1, NOW);
    const ka = newKey(a.id);
    const kb1 = newKey(b.id);
    const kb2 = newKey(b.id);
    for (const k of [ka, kb1, kb2]) expect((await store.keys.insert(k, sameKeyName)).ok).toBe(true);
    expect((await store.keys.list(a.id)).map((k) => k.id)).toEqual([ka.id]);
    expect((await store.keys.list(b.id)).map((k) => k.id).sort()).toEqual([kb1.id, kb2.id].sort());
    expect((await store.keys.list()).map((k) => k.id).sort()).toEqual([ka.id, kb1.id, kb2.id].sort());
  });

  it('refuses a digest already stored, naming the key that has it', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 1, NOW);
    const other = await store.accounts.create(unique('other'), 1, NOW);
    const first = newKey(acc.id);
    await store.keys.insert(first, sameKeyName);
    const clash = newKey(other.id, { digest: first.digest });
    const result = await store.keys.insert(clash, sameKeyName);
    expect(result).toMatchObject({ ok: false, reason: 'digest_taken', existing: { id: first.id } });
    expect(await store.keys.byId(clash.id)).toBeUndefined();
    expect(await store.keys.list(other.id)).toEqual([]);
  });

  it('refuses an active key of the same account with the same name (as sameKeyName compares)', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 1, NOW);
    const other = await store.accounts.create(unique('other'), 1, NOW);
    const first = newKey(acc.id, { name: 'Production' });
    await store.keys.insert(first, sameKeyName);
    const clash = newKey(acc.id, { name: '  production ' });
    expect(await store.keys.insert(clash, sameKeyName)).toMatchObject({
      ok: false,
      reason: 'name_taken',
      existing: { id: first.id },
    });
    expect(await store.keys.byId(clash.id)).toBeUndefined();
    // The same name on another account is no clash.
    expect((await store.keys.insert(newKey(other.id, { name: 'Production' }), sameKeyName)).ok).toBe(true);
    // The comparison is the caller's: with exact comparison the differently spelled name is free.
    expect((await store.keys.insert(clash, (x, y) => x === y)).ok).toBe(true);
  });

  it('refuses a key of an account that does not exist', async () => {
    const { store } = fx;
    const key = newKey(987_654);
    expect(await store.keys.insert(key, sameKeyName)).toMatchObject({ ok: false, reason: 'no_account' });
    expect(await store.keys.byId(key.id)).toBeUndefined();
  });

  it('lets a revoked key’s name be used again', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 1, NOW);
    const first = newKey(acc.id, { name: 'ci' });
    await store.keys.insert(first, sameKeyName);
    expect(await store.keys.revoke(first.id, LATER)).toBe('revoked');
    const second = newKey(acc.id, { name: 'CI' });
    expect(await store.keys.insert(second, sameKeyName)).toMatchObject({ ok: true, row: { id: second.id } });
  });

  it('revokes once: revoked, already, missing; the next lookup sees it', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 5, NOW);
    const key = newKey(acc.id);
    await store.keys.insert(key, sameKeyName);
    expect(await store.keys.authLookup(key.digest)).toMatchObject({ revoked_at: null });

    expect(await store.keys.revoke(key.id, LATER)).toBe('revoked');
    expect(await store.keys.authLookup(key.digest)).toMatchObject({ key_id: key.id, revoked_at: LATER });
    expect(await store.keys.byId(key.id)).toMatchObject({ revoked_at: LATER });

    expect(await store.keys.revoke(key.id, '2025-03-03T00:00:00.000Z')).toBe('already');
    // Permanent, and the first revocation time stays.
    expect(await store.keys.byId(key.id)).toMatchObject({ revoked_at: LATER });
    expect(await store.keys.revoke('no-such-key', LATER)).toBe('missing');
  });

  it('imports a chunk: skips stored digests, creates missing accounts with balance 0', async () => {
    const { store } = fx;
    const existing = await store.accounts.create(unique('here'), 40, NOW);
    const stored = newKey(existing.id);
    await store.keys.insert(stored, sameKeyName);
    const newAccount = unique('arrives');

    const imported = (account: string, digest: string, name: string): ImportedKey => ({
      account,
      name,
      digest,
      prefix: 'sk_l',
      last_four: '9f3a',
      origin: 'imported',
      created_at: NOW,
      last_used_at: null,
      revoked_at: null,
    });
    const chunk = [
      imported(existing.name, stored.digest, 'dup'),
      imported(existing.name, unique('digest-import'), 'legacy-a'),
      imported(newAccount, unique('digest-import'), 'legacy-b'),
      imported(newAccount, unique('digest-import'), 'legacy-c'),
    ];
    const ids: string[] = [];
    const result = await store.keys.importChunk(
      chunk,
      () => {
        const id = unique('imported-id');
        ids.push(id);
        return id;
      },
      NOW,
    );
    expect(result).toEqual({ imported: 3, skipped: 1, accounts_created: [newAccount] });

    const created = await store.accounts.byName(newAccount);
    expect(created).toMatchObject({ balance: 0 });
    expect(await store.accounts.balance(existing.id)).toBe(40);
    expect(await store.accounts.invariantViolations()).toEqual([]);

    const ofNew = await store.keys.list(created!.id);
    expect(ofNew.map((k) => k.name).sort()).toEqual(['legacy-b', 'legacy-c']);
    for (const k of ofNew) {
      expect(k.origin).toBe('imported');
      expect(ids).toContain(k.id);
    }
    const lookup = await store.keys.authLookup(chunk[1]!.digest);
    expect(lookup).toMatchObject({ account_id: existing.id, balance: 40 });
    // The skipped key is still the stored one.
    expect(await store.keys.byDigest(stored.digest)).toMatchObject({ id: stored.id, name: stored.name });

    // The same chunk again: everything skipped, nothing created.
    const again = await store.keys.importChunk(chunk, () => unique('imported-id'), NOW);
    expect(again).toEqual({ imported: 0, skipped: 4, accounts_created: [] });
  });

  it('records a key’s last use', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('owner'), 1, NOW);
    const key = newKey(acc.id);
    await store.keys.insert(key, sameKeyName);
    await store.keys.touch(key.id, LATER);
    expect(await store.keys.byId(key.id)).toMatchObject({ last_used_at: LATER });
    expect(await store.keys.authLookup(key.digest)).toMatchObject({ last_used_at: LATER });
  });
});
