// The carriers' company-wide state (port: CarrierCoordinationStore): a quota window, a once-at-a-time section
// and shared tokens, seen alike by every instance. Only stores shared by instances keep it; an embedded store
// has none (its process's limiters are the whole truth), and these tests are skipped for it.
import { describe, expect, it } from 'vitest';
import type { CarrierCoordinationStore, Store } from '../../../core/store/port';
import { STORE_IMPLEMENTATIONS } from './implementations';
import { sleep, unique, useStore } from './harness';

const coordinated = STORE_IMPLEMENTATIONS.filter((impl) => impl.sharedState);

function coordination(store: Store): CarrierCoordinationStore {
  if (!store.carrierCoordination) throw new Error('a shared store must keep carrier coordination');
  return store.carrierCoordination;
}

describe.each(coordinated)('carrier coordination ($name)', (impl) => {
  const fx = useStore(impl);

  it('holds one window for both instances, with fair shares per asker', async () => {
    const first = coordination(fx.store);
    const second = coordination(await fx.opened.openSecond());
    const window = unique('pek');
    const rule = { limit: 10, windowMs: 60_000 };
    // Alone, an asker gets at most half: whoever comes next finds room.
    for (let i = 0; i < 5; i++) expect((await first.takeSlot(window, 'a', rule)).ok).toBe(true);
    const over = await second.takeSlot(window, 'a', rule);
    expect(over).toMatchObject({ ok: false, ownFull: true, share: 5 });
    if (!over.ok) expect(over.waitMs).toBeGreaterThan(50_000);
    for (let i = 0; i < 5; i++) expect((await second.takeSlot(window, 'b', rule)).ok).toBe(true);
    // The window is full for everyone, on either instance.
    expect(await first.takeSlot(window, 'c', rule)).toMatchObject({ ok: false, ownFull: false });
    expect((await second.takeSlot(unique('other-window'), 'c', rule)).ok).toBe(true);
  });

  it('lets exactly the limit through when both instances take at once', async () => {
    const stores = [coordination(fx.store), coordination(await fx.opened.openSecond())];
    const window = unique('pek');
    const rule = { limit: 10, windowMs: 60_000 };
    // Three askers seen first, one slot each, so every share is 3 from here on, whatever the race's order.
    for (const asker of ['a0', 'a1', 'a2'])
      expect((await stores[0]!.takeSlot(window, asker, rule)).ok).toBe(true);
    const takes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => stores[i % 2]!.takeSlot(window, `a${i % 3}`, rule)),
    );
    expect(takes.filter((t) => t.ok)).toHaveLength(6);
  });

  it('frees slots when the window has passed', async () => {
    const first = coordination(fx.store);
    const window = unique('short');
    const rule = { limit: 2, windowMs: 300 };
    expect((await first.takeSlot(window, 'a', rule)).ok).toBe(true);
    expect((await first.takeSlot(window, 'a', rule)).ok).toBe(false);
    await sleep(350);
    expect((await first.takeSlot(window, 'a', rule)).ok).toBe(true);
  });

  it('runs one exclusive section at a time across instances', async () => {
    const stores = [coordination(fx.store), coordination(await fx.opened.openSecond())];
    const name = unique('download');
    let inside = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        stores[i % 2]!.exclusive(name, async () => {
          inside++;
          most = Math.max(most, inside);
          await sleep(20);
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(order).toHaveLength(6);
  });

  it('shares a token until it is due for refresh', async () => {
    const first = coordination(fx.store);
    const second = coordination(await fx.opened.openSecond());
    const name = unique('cdek-token');
    expect(await second.token(name, 1_000)).toBeUndefined();
    await first.putToken(name, 'tok-1', 5_000);
    expect(await second.token(name, 1_000)).toEqual({ token: 'tok-1', refreshAtMs: 5_000 });
    expect(await second.token(name, 5_000)).toBeUndefined();
    await second.putToken(name, 'tok-2', 9_000);
    expect(await first.token(name, 6_000)).toEqual({ token: 'tok-2', refreshAtMs: 9_000 });
  });
});
