// The rate-card set the running service quotes with: rebuilt only after the store's change feed announces a
// change of rate cards, and never handed out from before a change a caller could have seen.
import { describe, expect, it } from 'vitest';
import { RateCardCarriers, type RateCardSource } from '../../../../core/ratecards/carriers';
import type { ChangeTopic, RateCardRecord } from '../../../../core/store/port';

/** A store's rate-card slice and change feed in memory, whose reads can be held back. */
function fakeSource() {
  let cards: RateCardRecord[] = [];
  const listeners = new Set<(topics: ReadonlySet<ChangeTopic>) => void>();
  let gate: Promise<void> = Promise.resolve();
  let reads = 0;
  const source: RateCardSource = {
    changes: {
      subscribe: (fn) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
      poll: () => Promise.resolve(),
      beginRequest: () => {},
      announcesBalances: true,
    },
    rateCards: {
      versions: async () => {
        reads++;
        const seen = cards.map((c) => ({ id: c.id, code: c.code }));
        await gate;
        return seen;
      },
      load: async (id) => {
        const card = cards.find((c) => c.id === id);
        return card && { card, rows: [] };
      },
    },
  };
  return {
    source,
    reads: () => reads,
    /** The next reads wait until the returned function is called. */
    hold(): () => void {
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      return () => {
        gate = Promise.resolve();
        open();
      };
    },
    publish(code: string): void {
      cards = [
        ...cards,
        { id: cards.length + 1, code, name: code, volumetric_divisor: 5000, created_at: '' },
      ];
      for (const fn of listeners) fn(new Set<ChangeTopic>(['rate_cards']));
    },
  };
}

const codes = async (set: RateCardCarriers): Promise<string[]> => [...(await set.current()).adapters.keys()];

describe('RateCardCarriers', () => {
  it('asks the store only after a rate-card change is announced', async () => {
    const f = fakeSource();
    const set = new RateCardCarriers(f.source);
    expect(await codes(set)).toEqual([]);
    await set.current();
    expect(f.reads()).toBe(1);
    f.publish('ural');
    expect(await codes(set)).toEqual(['ural']);
    expect(f.reads()).toBe(2);
  });

  it('a change during a reload starts another: a caller after an import never gets the set from before it', async () => {
    const f = fakeSource();
    const set = new RateCardCarriers(f.source);
    const open = f.hold();
    const before = set.current(); // reads versions now (no cards), then waits
    f.publish('ural'); // imported while that reload waits
    const after = set.current();
    open();
    expect([...(await before).adapters.keys()]).toEqual([]);
    expect([...(await after).adapters.keys()]).toEqual(['ural']);
    // The older reload, finishing last or first, does not undo the newer one.
    expect(await codes(set)).toEqual(['ural']);
  });
});
