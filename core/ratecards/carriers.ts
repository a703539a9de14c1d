// The rate cards of the data file as carriers of the running service: one adapter per card, rebuilt only
// for a card whose version (its row id) changed. The file is asked only after the store's ChangeWatch says
// it may have changed (this process wrote, or the admin CLI committed), and then with one small query, so a
// quote costs nothing extra while the cards stay as they are.
import type { CarrierInfo } from '../contract/v1';
import type { CarrierAdapter } from '../carriers/types';
import type { HealthBoard } from '../rating/health';
import type { RateCardsRepo } from '../store/rate-cards';
import { createRateCardAdapter } from './adapter';
import type { CityLookup } from './cities';

/** What the registry needs of the store (a Store has both). */
export interface RateCardSource {
  changes: { generation(): number };
  rateCards: Pick<RateCardsRepo, 'versions' | 'load'>;
}

export interface RateCardCarrierSet {
  /** By code, in code order. The same object until a card is imported or removed. */
  adapters: ReadonlyMap<string, CarrierAdapter>;
}

const NONE: RateCardCarrierSet = { adapters: new Map() };

export class RateCardCarriers {
  private generation = -1;
  private fingerprint = '';
  private byId = new Map<number, CarrierAdapter>();
  private state: RateCardCarrierSet = NONE;

  constructor(
    private readonly source: RateCardSource,
    private readonly cities?: CityLookup,
  ) {}

  current(): RateCardCarrierSet {
    const generation = this.source.changes.generation();
    if (generation === this.generation) return this.state;
    this.generation = generation;
    const versions = this.source.rateCards.versions();
    const fingerprint = versions.map((v) => `${v.id}:${v.code}`).join(',');
    if (fingerprint === this.fingerprint) return this.state;

    const byId = new Map<number, CarrierAdapter>();
    const adapters = new Map<string, CarrierAdapter>();
    for (const { id } of versions) {
      let adapter = this.byId.get(id);
      if (!adapter) {
        const loaded = this.source.rateCards.load(id);
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
  info(health: HealthBoard): CarrierInfo[] {
    return [...this.current().adapters.values()].map((a) => ({
      code: a.code,
      name: a.name,
      status: health.get(a.code).status,
    }));
  }
}
