// The rate cards of the store as carriers of the running service: one adapter per card, rebuilt only for a
// card whose version (its row id) changed. The store is asked only after its change feed says rate cards may
// have changed (this process wrote, or the admin CLI committed), and then with one small query, so a quote
// costs nothing extra while the cards stay as they are.
import type { CarrierInfo } from '../contract/v1';
import type { CarrierAdapter } from '../carriers/types';
import type { HealthBoard } from '../rating/health';
import type { ChangeFeed, RateCardsStore } from '../store/port';
import { createRateCardAdapter } from './adapter';
import type { CityLookup } from './cities';

/** What the registry needs of the store (a Store has both). */
export interface RateCardSource {
  changes: ChangeFeed;
  rateCards: Pick<RateCardsStore, 'versions' | 'load'>;
}

export interface RateCardCarrierSet {
  /** By code, in code order. The same object until a card is imported or removed. */
  adapters: ReadonlyMap<string, CarrierAdapter>;
}

const NONE: RateCardCarrierSet = { adapters: new Map() };

export class RateCardCarriers {
  private fingerprint = '';
  private byId = new Map<number, CarrierAdapter>();
  private state: RateCardCarrierSet = NONE;
  /** Bumped by every announced change of rate cards; `built` is the value the current state was read at. */
  private changes = 0;
  private built = -1;
  private loading: { at: number; set: Promise<RateCardCarrierSet> } | null = null;

  constructor(
    private readonly source: RateCardSource,
    private readonly cities?: CityLookup,
  ) {
    source.changes.subscribe((topics) => {
      if (topics.has('rate_cards')) this.changes++;
    });
  }

  current(): Promise<RateCardCarrierSet> {
    // Not awaited: an embedded store's poll is done when it returns; a shared database's generations were
    // already read by this request's key lookup (store/postgres/change-feed.ts), which announced any change.
    void this.source.changes.poll();
    if (this.built === this.changes) return Promise.resolve(this.state);
    // Callers share a reload started after the last change; a change during a reload starts another, so a
    // quote sent after an import never gets the set from before it.
    if (this.loading?.at === this.changes) return this.loading.set;
    const at = this.changes;
    const set = this.reload(at).finally(() => {
      if (this.loading?.set === set) this.loading = null;
    });
    this.loading = { at, set };
    return set;
  }

  private async reload(at: number): Promise<RateCardCarrierSet> {
    const versions = await this.source.rateCards.versions();
    const fingerprint = versions.map((v) => `${v.id}:${v.code}`).join(',');
    // A reload started later has already applied what it read: this older one must not undo it.
    if (at < this.built) return this.state;
    if (fingerprint === this.fingerprint) {
      this.built = at;
      return this.state;
    }

    const byId = new Map<number, CarrierAdapter>();
    const adapters = new Map<string, CarrierAdapter>();
    for (const { id } of versions) {
      let adapter = this.byId.get(id);
      if (!adapter) {
        const loaded = await this.source.rateCards.load(id);
        // Replaced or removed between the two reads: the next change of the file brings the new version.
        if (!loaded) continue;
        const card = {
          code: loaded.card.code,
          name: loaded.card.name,
          volumetricDivisor: loaded.card.volumetric_divisor,
          rows: loaded.rows,
        };
        adapter = createRateCardAdapter(card, this.cities);
      }
      byId.set(id, adapter);
      adapters.set(adapter.code, adapter);
    }
    if (at < this.built) return this.state;
    this.byId = byId;
    this.fingerprint = fingerprint;
    this.state = adapters.size === 0 ? NONE : { adapters };
    this.built = at;
    return this.state;
  }

  /** GET /v1/carriers: every card (a card is on while it exists), its name, its health like any carrier's. */
  async info(health: Pick<HealthBoard, 'get'>): Promise<CarrierInfo[]> {
    return [...(await this.current()).adapters.values()].map((a) => ({
      code: a.code,
      name: a.name,
      status: health.get(a.code).status,
    }));
  }
}
