// Which adapters answer, built from settings and the catalogue of built-in carriers: sandbox mode points
// every carrier at its in-process simulator; live mode at its production host, its test host, its simulator
// or a custom host (carriers.<code>.endpoint). Rebuilt only when the relevant settings change (the CDEK
// token cache lives in its adapter, so it survives unrelated setting changes).
import { CARRIER_DESCRIPTORS } from '../carriers/built-in';
import type { SimulatorHandle } from '../carriers/simulators/handle';
import { CARRIER_CODES, CARRIER_NAMES, type CarrierAdapter, type CarrierCode } from '../carriers/types';
import type { CarrierInfo } from '../contract/v1';
import type { CarrierSet } from '../rating/aggregator';
import type { HealthBoard } from '../rating/health';
import { RateCardCarriers, type RateCardCarrierSet, type RateCardSource } from '../ratecards/carriers';
import { liveBaseUrl } from '../settings/carrier-settings';
import type { SettingName } from '../settings/schema';
import type { SettingsView } from '../settings/view';
import { builtInCarriers, type BuiltInCarrier, type CarrierEnvironment } from './built-in-carriers';

export interface RegistryOptions {
  /** Fixed latency of the sandbox simulators (benchmarks); 0 by default. */
  simulatorLatencyMs?: number;
  /**
   * Benchmarks only: simulators already running elsewhere (a process each, as real carriers are other
   * machines), used in sandbox mode instead of starting them in this process.
   */
  simulatorUrls?: Partial<Record<CarrierCode, string>>;
  /** Fixed in-process adapters (benchmarks); they are never real carriers, so sandbox mode is reported. */
  adapters?: CarrierAdapter[];
  /**
   * Tests only (the carrier chaos suite): the URL an adapter uses instead of its simulator's, e.g. a fault
   * proxy in front of it. Every carrier's sandbox URL passes through here, so a carrier added later is
   * covered by the suite without editing it.
   */
  sandboxFront?: (carrier: CarrierCode, simulatorUrl: string) => string;
  /**
   * The data file's rate cards (#10 item 2): each card is a carrier beside the built-in ones, on while it
   * exists, answering from its rows in sandbox and live mode alike (its prices are the contract's, never a
   * simulator's). Without it, no rate cards.
   */
  rateCards?: RateCardSource;
  /** The service's location resolver (SQLite cache) and logger, shared by every adapter it builds. */
  environment?: CarrierEnvironment;
}

export class CarrierRegistry {
  private readonly sims = new Map<CarrierCode, Promise<SimulatorHandle>>();
  private builtFor = '';
  private current: CarrierSet = { adapters: new Map(), disabled: new Set() };
  /** The build under way and the configuration it is for: callers meanwhile share it (see builtInSet). */
  private building: { config: string; set: Promise<CarrierSet> } | null = null;
  /** Codes of the current built-in adapters that talk to a simulator, not to the carrier. */
  private simulatedCodes: ReadonlySet<string> = new Set();
  private readonly cards: RateCardCarriers | null;
  private merged: { builtIn: CarrierSet; cards: RateCardCarrierSet; set: CarrierSet } | null = null;

  constructor(
    private readonly settings: SettingsView,
    private readonly options: RegistryOptions = {},
  ) {
    this.cards = options.rateCards ? new RateCardCarriers(options.rateCards) : null;
  }

  /**
   * Whether any price may come from a simulator: sandbox mode, fixed test adapters, or a live carrier pointed
   * at its simulator (endpoint = simulator). Every answer is then marked sandbox: a simulated price must never
   * pass for a real one.
   */
  sandbox(): boolean {
    if (this.options.adapters !== undefined || this.settings.get('sandbox') === 'on') return true;
    return CARRIER_DESCRIPTORS.some(
      (c) =>
        this.settings.get(setting(c.code, 'enabled')) === 'on' &&
        this.settings.get(setting(c.code, 'endpoint')) === 'simulator',
    );
  }

  /** Starts the simulators now (in sandbox mode) so the first quote does not pay for it. */
  async warmUp(): Promise<void> {
    if (this.sandbox() && !this.options.adapters) {
      await Promise.all((await builtInCarriers()).map((c) => this.simulator(c)));
    }
  }

  /**
   * Whether the adapter of `code` in the last carrier set answers from a simulator (sandbox mode, endpoint =
   * simulator, fixed test adapters) rather than the carrier: the warm-up's throwaway quote asks only these.
   */
  simulated(code: string): boolean {
    return this.options.adapters !== undefined || this.simulatedCodes.has(code);
  }

  /**
   * The built-in carriers as settings configure them, and the rate cards beside them. A card imported or
   * removed changes only the card part: the built-in adapters (and CDEK's token) are kept.
   */
  async carrierSet(): Promise<CarrierSet> {
    const builtIn = await this.builtInSet();
    const cards = await this.cards?.current();
    if (!cards || cards.adapters.size === 0) return builtIn;
    if (this.merged?.builtIn !== builtIn || this.merged.cards !== cards) {
      const adapters = new Map([...builtIn.adapters, ...cards.adapters]);
      this.merged = { builtIn, cards, set: { adapters, disabled: builtIn.disabled } };
    }
    return this.merged.set;
  }

  private async builtInSet(): Promise<CarrierSet> {
    if (this.options.adapters) {
      return { adapters: new Map(this.options.adapters.map((a) => [a.code, a])), disabled: new Set() };
    }
    const s = this.settings;
    const sandbox = s.get('sandbox') === 'on';
    const enabled = (await builtInCarriers()).filter((c) => s.get(setting(c.code, 'enabled')) === 'on');
    const config = JSON.stringify([
      sandbox,
      enabled.map((c) => [
        c.code,
        s.get(setting(c.code, 'endpoint')),
        s.get(setting(c.code, 'base_url')),
        s.get(setting(c.code, 'timeout_ms')),
        c.configKeys.map((k) => s.get(k)),
      ]),
    ]);
    if (config === this.builtFor) return this.current;
    // Two callers on a cold registry (the warm-up and the first quote) must get the same adapters: each
    // adapter keeps what it downloaded (Boxberry's city list, CDEK's token), and a second build would start
    // from nothing. In sandbox mode everything awaited below is already settled, so the two cannot interleave;
    // in live mode the first build loads the heavy halves, which takes event-loop turns.
    if (this.building?.config !== config) {
      const set = this.build(enabled, sandbox, config);
      this.building = { config, set };
      void set.then(
        () => {
          if (this.building?.set === set) this.building = null;
        },
        () => {
          if (this.building?.set === set) this.building = null;
        },
      );
    }
    return this.building.set;
  }

  private async build(enabled: BuiltInCarrier[], sandbox: boolean, config: string): Promise<CarrierSet> {
    const s = this.settings;
    const front = this.options.sandboxFront ?? ((_code: CarrierCode, url: string) => url);
    const adapters = new Map<string, CarrierAdapter>();
    const simulated = new Set<string>();
    for (const carrier of enabled) {
      const live = sandbox
        ? null
        : liveBaseUrl(
            carrier.descriptor.settings,
            s.get(setting(carrier.code, 'endpoint')),
            s.get(setting(carrier.code, 'base_url')),
          );
      const baseUrl = live ?? front(carrier.code, (await this.simulator(carrier)).url);
      if (live === null) simulated.add(carrier.code);
      const adapter = carrier.create({ baseUrl, simulated: live === null }, s, this.options.environment);
      const timeoutMs = Number(s.get(setting(carrier.code, 'timeout_ms')));
      adapters.set(carrier.code, timeoutMs > 0 ? withTimeout(adapter, timeoutMs) : adapter);
    }
    this.current = {
      adapters,
      disabled: new Set(CARRIER_CODES.filter((c) => !enabled.some((e) => e.code === c))),
    };
    this.simulatedCodes = simulated;
    this.builtFor = config;
    return this.current;
  }

  /**
   * Enabled carriers with their status (disabled ones are not "active" in the spec's sense), then the rate
   * cards under their own names.
   */
  async info(health: Pick<HealthBoard, 'get'>): Promise<CarrierInfo[]> {
    const builtIn = CARRIER_CODES.filter((c) => this.settings.get(setting(c, 'enabled')) === 'on').map(
      (code) => ({ code, name: CARRIER_NAMES[code], status: health.get(code).status }),
    );
    return this.cards ? [...builtIn, ...(await this.cards.info(health))] : builtIn;
  }

  async close(): Promise<void> {
    const running = [...this.sims.values()];
    this.sims.clear();
    await Promise.all(running.map((p) => p.then((h) => h.close()).catch(() => undefined)));
  }

  /** A carrier's simulator, started on first need (sandbox mode, or endpoint = simulator). */
  private simulator(carrier: BuiltInCarrier): Promise<SimulatorHandle> {
    let sim = this.sims.get(carrier.code);
    const elsewhere = this.options.simulatorUrls?.[carrier.code];
    if (!sim && elsewhere) {
      sim = Promise.resolve({ url: elsewhere, close: () => Promise.resolve(), requestCount: () => 0 });
      this.sims.set(carrier.code, sim);
    }
    if (!sim) {
      sim = carrier.startSimulator({ latencyMs: this.options.simulatorLatencyMs ?? 0 });
      this.sims.set(carrier.code, sim);
    }
    return sim;
  }
}

function setting(code: CarrierCode, name: 'enabled' | 'endpoint' | 'base_url' | 'timeout_ms'): SettingName {
  return `carriers.${code}.${name}`;
}

/** The same adapter with its own timeout (carriers.<code>.timeout_ms). */
function withTimeout(adapter: CarrierAdapter, timeoutMs: number): CarrierAdapter {
  return {
    code: adapter.code,
    name: adapter.name,
    ...(adapter.limits ? { limits: adapter.limits } : {}),
    timeoutMs,
    quote: (request, context) => adapter.quote(request, context),
    ...(adapter.prepare ? { prepare: adapter.prepare.bind(adapter) } : {}),
    ...(adapter.points ? { points: adapter.points } : {}),
  };
}
