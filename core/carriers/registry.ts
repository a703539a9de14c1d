// Which adapters answer, built from settings: sandbox mode points them at the in-process simulators, live
// mode at the carriers' own hosts. Rebuilt only when the relevant settings change (the CDEK token cache
// lives in its adapter, so it survives unrelated setting changes).
import type { CarrierInfo } from '../contract/v1';
import type { CarrierSet } from '../rating/aggregator';
import type { HealthBoard } from '../rating/health';
import type { SettingsView } from '../settings/view';
import { createCdekAdapter } from './cdek';
import { createRussianPostAdapter } from './russian-post';
import { startCdekSimulator } from './simulators/cdek';
import type { SimulatorHandle } from './simulators/handle';
import { startRussianPostSimulator } from './simulators/russian-post';
import { CARRIER_CODES, CARRIER_NAMES, type CarrierAdapter, type CarrierCode } from './types';

export { CARRIER_NAMES };

interface Simulators {
  russianPost: SimulatorHandle;
  cdek: SimulatorHandle;
}

export interface RegistryOptions {
  /** Fixed latency of the sandbox simulators (benchmarks); 0 by default. */
  simulatorLatencyMs?: number;
  /** Fixed in-process adapters (benchmarks); they are never real carriers, so sandbox mode is reported. */
  adapters?: CarrierAdapter[];
  /**
   * Tests only (the carrier chaos suite): the URL an adapter uses instead of its simulator's, e.g. a fault
   * proxy in front of it. Every carrier's sandbox URL passes through here, so a carrier added later is
   * covered by the suite without editing it.
   */
  sandboxFront?: (carrier: CarrierCode, simulatorUrl: string) => string;
}

export class CarrierRegistry {
  private sims: Simulators | null = null;
  private starting: Promise<Simulators> | null = null;
  private builtFor = '';
  private current: CarrierSet = { adapters: new Map(), disabled: new Set() };

  constructor(
    private readonly settings: SettingsView,
    private readonly options: RegistryOptions = {},
  ) {}

  sandbox(): boolean {
    return this.options.adapters !== undefined || this.settings.get('sandbox') === 'on';
  }

  /** Starts the simulators now (in sandbox mode) so the first quote does not pay for it. */
  async warmUp(): Promise<void> {
    if (this.sandbox() && !this.options.adapters) await this.simulators();
  }

  async carrierSet(): Promise<CarrierSet> {
    if (this.options.adapters) {
      return { adapters: new Map(this.options.adapters.map((a) => [a.code, a])), disabled: new Set() };
    }
    const s = this.settings;
    const sandbox = this.sandbox();
    const enabled = CARRIER_CODES.filter((c) => s.get(`carriers.${c}.enabled`) === 'on');
    const config = JSON.stringify([
      sandbox,
      enabled,
      s.get('carriers.russian-post.base_url'),
      s.get('carriers.cdek.base_url'),
      s.get('carriers.cdek.client_id'),
      s.get('carriers.cdek.client_secret'),
    ]);
    if (config === this.builtFor) return this.current;
    const sims = sandbox ? await this.simulators() : null;
    const front = this.options.sandboxFront ?? ((_code: CarrierCode, url: string) => url);
    const adapters = new Map<string, CarrierAdapter>();
    for (const code of enabled) {
      if (code === 'russian-post') {
        adapters.set(
          code,
          createRussianPostAdapter({
            baseUrl: sims ? front(code, sims.russianPost.url) : s.get('carriers.russian-post.base_url'),
          }),
        );
      } else {
        adapters.set(
          code,
          sims
            ? createCdekAdapter({
                baseUrl: front(code, sims.cdek.url),
                clientId: SANDBOX_CDEK.id,
                clientSecret: SANDBOX_CDEK.secret,
              })
            : createCdekAdapter({
                baseUrl: s.get('carriers.cdek.base_url'),
                clientId: s.get('carriers.cdek.client_id') || null,
                clientSecret: s.get('carriers.cdek.client_secret') || null,
              }),
        );
      }
    }
    this.current = { adapters, disabled: new Set(CARRIER_CODES.filter((c) => !enabled.includes(c))) };
    this.builtFor = config;
    return this.current;
  }

  /** Enabled carriers with their status (disabled ones are not "active" in the spec's sense). */
  info(health: HealthBoard): CarrierInfo[] {
    return CARRIER_CODES.filter((c) => this.settings.get(`carriers.${c}.enabled`) === 'on').map((code) => ({
      code,
      name: CARRIER_NAMES[code],
      status: health.get(code).status,
    }));
  }

  async close(): Promise<void> {
    const sims = this.sims ?? (this.starting ? await this.starting.catch(() => null) : null);
    this.sims = null;
    if (sims) await Promise.all([sims.russianPost.close(), sims.cdek.close()]);
  }

  private simulators(): Promise<Simulators> {
    if (this.sims) return Promise.resolve(this.sims);
    this.starting ??= (async () => {
      const latencyMs = this.options.simulatorLatencyMs ?? 0;
      const [russianPost, cdek] = await Promise.all([
        startRussianPostSimulator({ latencyMs }),
        startCdekSimulator({ latencyMs, clientId: SANDBOX_CDEK.id, clientSecret: SANDBOX_CDEK.secret }),
      ]);
      this.sims = { russianPost, cdek };
      return this.sims;
    })();
    return this.starting;
  }
}

/** Credentials between the sandbox adapter and simulator only; not a real account. */
const SANDBOX_CDEK = { id: 'ratedesk-sandbox', secret: 'ratedesk-sandbox-secret' } as const;
