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
  /** Set when the feed announces a change of rate cards: the next current() asks the store. */
  private stale = true;
  private loading: Promise<RateCardCarrierSet> | null = null;
  private fingerprint = '';
  private byId = new Map<number, CarrierAdapter>();
  private state: RateCardCarrierSet = NONE;

  constructor(
    private readonly source: RateCardSource,
    private readonly cities?: CityLookup,
  ) {
    source.changes.subscribe((topics) => {
      if (topics.has('rate_cards')) this.stale = true;
    });
  }

  current(): Promise<RateCardCarrierSet> {
    this.source.changes.poll();
    if (!this.stale) return Promise.resolve(this.state);
    // Callers during a reload share it: two builds of one card would be two adapters for one code.
    this.loading ??= this.reload()
      .catch((error: unknown) => {
        this.stale = true;
        throw error;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  private async reload(): Promise<RateCardCarrierSet> {
    this.stale = false;
    const versions = await this.source.rateCards.versions();
    const fingerprint = versions.map((v) => `${v.id}:${v.code}`).join(',');
    if (fingerprint === this.fingerprint) return this.state;

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
    this.byId = byId;
    this.fingerprint = fingerprint;
    this.state = adapters.size === 0 ? NONE : { adapters };
    return this.state;
  }

  /** GET /v1/carriers: every card (a card is on while it exists), its name, its health like any carrier's. */
  async info(health: HealthBoard): Promise<CarrierInfo[]> {
    return [...(await this.current()).adapters.values()].map((a) => ({
      code: a.code,
      name: a.name,
      status: health.get(a.code).status,
    }));
  }
}
