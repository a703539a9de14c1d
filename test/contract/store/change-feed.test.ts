// The change feed through the store port: what a write of this store announces (before its caller hears
// back), unsubscribing, and commits made by another instance on the same data, seen after poll().
import { describe, expect, it } from 'vitest';
import { sameKeyName } from '../../../core/contract/operations/keys';
import type { ChangeTopic, Store } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { chargeInput, newKey, NOW, rateCard, rateCardRows, unique, useStore } from './harness';

/** Every topic set the listener was called with, flattened per call. */
function record(store: Store): {
  calls: Array<Set<ChangeTopic>>;
  seen(): Set<ChangeTopic>;
  stop(): void;
  clear(): void;
} {
  const calls: Array<Set<ChangeTopic>> = [];
  const stop = store.changes.subscribe((topics) => calls.push(new Set(topics)));
  return {
    calls,
    seen: () => new Set(calls.flatMap((c) => [...c])),
    stop,
    clear: () => void calls.splice(0),
  };
}

describe.each(STORE_IMPLEMENTATIONS)('change feed ($name)', (impl) => {
  const fx = useStore(impl);

  it('announces keys after insert and revoke, before the caller hears back', async () => {
    const { store } = fx;
    const acc = await store.accounts.create(unique('feed'), 5, NOW);
    const feed = record(store);
    const key = newKey(acc.id);
    await store.keys.insert(key, sameKeyName);
    expect(feed.seen().has('keys')).toBe(true);
    feed.clear();
    await store.keys.revoke(key.id, NOW);
    expect(feed.seen().has('keys')).toBe(true);
    feed.clear();
    await store.keys.importChunk(
      [
        {
          account: acc.name,
          name: 'imported',
          digest: unique('digest'),
          prefix: 'x',
          last_four: 'abcd',
          origin: 'imported',
          created_at: NOW,
          last_used_at: null,
          revoked_at: null,
        },
      ],
      () => unique('id'),
      NOW,
    );
    expect(feed.seen().has('keys')).toBe(true);
  });

  it('announces accounts after create, top-up, limits, threshold and charge', async () => {
    const { store } = fx;
    const feed = record(store);
    const acc = await store.accounts.create(unique('feed'), 5, NOW);
    expect(feed.seen().has('accounts')).toBe(true);
    const steps: Array<() => Promise<unknown>> = [
      () => store.accounts.topup(acc.id, 10, NOW),
      () => store.accounts.setLimits(acc.id, 2, 4, NOW),
      () => store.accounts.clearLimits(acc.id),
      () => store.accounts.setThreshold(acc.id, '500'),
      () => store.charge(chargeInput(acc.id)),
    ];
    for (const step of steps) {
      feed.clear();
      await step();
      expect(feed.seen().has('accounts')).toBe(true);
    }
  });

  it('announces settings after settings.write, and the snapshot follows at once', async () => {
    const { store } = fx;
    expect(store.settings.snapshot().get('ui.language')).toBeUndefined();
    const feed = record(store);
    await store.settings.write([{ name: 'ui.language', value: 'en' }], NOW);
    expect(feed.seen().has('settings')).toBe(true);
    expect(store.settings.snapshot().get('ui.language')).toBe('en');
    feed.clear();
    await store.settings.write([{ name: 'ui.language', value: null }], NOW);
    expect(feed.seen().has('settings')).toBe(true);
    expect(store.settings.snapshot().has('ui.language')).toBe(false);
  });

  it('announces rate_cards after replace and remove', async () => {
    const { store } = fx;
    const feed = record(store);
    const code = unique('card');
    await store.rateCards.replace(rateCard(code), rateCardRows());
    expect(feed.seen().has('rate_cards')).toBe(true);
    feed.clear();
    await store.rateCards.replace(rateCard(code, 'Вторая версия'), rateCardRows());
    expect(feed.seen().has('rate_cards')).toBe(true);
    feed.clear();
    await store.rateCards.remove(code);
    expect(feed.seen().has('rate_cards')).toBe(true);
  });

  it('stops calling a listener that unsubscribed, and keeps calling the others', async () => {
    const { store } = fx;
    const gone = record(store);
    const stays = record(store);
    gone.stop();
    await store.accounts.create(unique('after'), 1, NOW);
    await store.settings.write([{ name: 'ui.theme', value: 'dark' }], NOW);
    await store.changes.poll();
    store.changes.beginRequest();
    expect(gone.calls).toEqual([]);
    expect(stays.seen().has('accounts')).toBe(true);
    expect(stays.seen().has('settings')).toBe(true);
  });

  it('sees a commit by another instance after poll(): the listener hears of it, the snapshot follows', async () => {
    const first = fx.store;
    const second = await fx.opened.openSecond();
    // Prime the first store's copy, so a stale copy would show.
    expect(first.settings.snapshot().get('ui.language')).toBeUndefined();
    const feed = record(first);

    await second.settings.write([{ name: 'ui.language', value: 'en' }], NOW);
    await first.changes.poll();
    expect(feed.seen().has('settings')).toBe(true);
    expect(first.settings.snapshot().get('ui.language')).toBe('en');
    expect(await first.settings.get('ui.language')).toBe('en');

    const acc = await second.accounts.create(unique('elsewhere'), 3, NOW);
    const key = newKey(acc.id);
    await second.keys.insert(key, sameKeyName);
    feed.clear();
    await second.keys.revoke(key.id, NOW);
    await first.changes.poll();
    expect(feed.seen().has('keys')).toBe(true);
    expect(await first.keys.authLookup(key.digest)).toMatchObject({ revoked_at: NOW });

    feed.clear();
    await second.accounts.topup(acc.id, 10, NOW);
    await first.changes.poll();
    expect(feed.seen().has('accounts')).toBe(true);
    expect(await first.accounts.balance(acc.id)).toBe(13);

    feed.clear();
    await second.rateCards.replace(rateCard(unique('card')), rateCardRows());
    await first.changes.poll();
    expect(feed.seen().has('rate_cards')).toBe(true);
  });
});
