// Carriers: every built-in carrier (enabled or not), its health, where it is asked, its timeout and its
// credentials. Store operations, so the admin CLI and the desk run the same ones: settings are read from the
// store (secrets opened by the host's secret store), health from the row the running service keeps current.
// The live check runs in the service (the desk); the CLI runs the same check (core/platform/carrier-check.ts).
import { CARRIER_DESCRIPTORS } from '../carriers/built-in';
import type { CarrierDescriptor } from '../carriers/descriptor';
import { CARRIER_NAMES, CARRIER_NAMES_EN, type CarrierCode } from '../carriers/types';
import type { CarrierEndpoint, CarrierView } from '../contract/operations';
import { liveBaseUrl, type CarrierSettingsSpec } from '../settings/carrier-settings';
import { SETTINGS, maskSecret, type SettingName } from '../settings/schema';
import type { CarrierHealthRow, Store } from '../store/port';
import type { StoreContext } from './context';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { writeSettings } from './settings';

/** A built-in carrier as its descriptor describes it (no adapter code: the admin CLI loads none). */
type CarrierSpec = CarrierSettingsSpec<CarrierCode> & { limitsUnverified: { ru: string; en: string } | null };

const CARRIER_SPECS: readonly CarrierSpec[] = CARRIER_DESCRIPTORS.map(
  (d: CarrierDescriptor<CarrierCode>): CarrierSpec => ({
    code: d.code,
    limitsUnverified: d.limitsUnverified ?? null,
    ...d.settings,
  }),
);

function knownCarrier(code: string): CarrierSpec {
  const found = CARRIER_SPECS.find((c) => c.code === code);
  if (!found) {
    const known = CARRIER_SPECS.map((c) => c.code).join(', ');
    throw new OperationError('not_found', `No carrier ${JSON.stringify(code)}. Known: ${known}.`);
  }
  return found;
}

const name = (code: string, field: string): SettingName => `carriers.${code}.${field}` as SettingName;
/** What carrierView reads: the stored settings and every carrier's health row, each read once. */
interface CarrierState {
  settings: ReadonlyMap<string, string>;
  health: readonly CarrierHealthRow[];
}

async function carrierState(store: Store): Promise<CarrierState> {
  const [settings, health] = await Promise.all([store.settings.all(), store.carrierHealth.all()]);
  return { settings, health };
}

const read = (state: CarrierState, setting: SettingName): string =>
  state.settings.get(setting) ?? SETTINGS[setting].default;

/**
 * The account fields of a carrier: the secret, and the account id when the carrier has one (an API token
 * alone is a secret without an id). Null when the carrier needs no account (Russian Post's public calculator).
 */
function credentialNames(
  carrier: CarrierSpec,
): { id: SettingName | null; secret: SettingName; idField: string | null; secretField: string } | null {
  const fields = Object.entries<{ secret: boolean }>(carrier.credentials ?? {});
  const id = fields.find(([, f]) => !f.secret)?.[0];
  const secret = fields.find(([, f]) => f.secret)?.[0];
  if (!secret) return null;
  return {
    id: id ? name(carrier.code, id) : null,
    secret: name(carrier.code, secret),
    idField: id ?? null,
    secretField: secret,
  };
}

export function carrierView(store: CarrierState, carrier: CarrierSpec): CarrierView {
  const code = carrier.code;
  const health = store.health.find((h) => h.code === code);
  const creds = credentialNames(carrier);
  const secret = creds ? read(store, creds.secret) : '';
  const clientId = creds?.id ? read(store, creds.id) : null;
  const endpoint = read(store, name(code, 'endpoint')) as CarrierEndpoint;
  const baseUrl = read(store, name(code, 'base_url'));
  return {
    code,
    name: CARRIER_NAMES[code],
    name_en: CARRIER_NAMES_EN[code],
    enabled: read(store, name(code, 'enabled')) === 'on',
    status: health?.status ?? 'unknown',
    last_error: health?.last_error ?? null,
    last_success_at: health?.last_success_at ?? null,
    median_latency_ms: health?.latency_ms_median ?? null,
    endpoint,
    base_url: liveBaseUrl(carrier, endpoint, baseUrl) ?? baseUrl,
    default_base_url: SETTINGS[name(code, 'base_url')].default,
    limits_unverified: carrier.limitsUnverified,
    hosts: { production: carrier.production, test: carrier.test ?? null },
    timeout_ms: Number(read(store, name(code, 'timeout_ms'))),
    default_timeout_ms: Number(read(store, 'rating.carrier_timeout_ms')),
    credentials: creds
      ? {
          client_id: clientId,
          client_secret_masked: maskSecret(secret),
          configured: clientId !== '' && secret !== '',
          id_field: creds.idField,
          secret_field: creds.secretField,
        }
      : null,
  };
}

export const carrierOperations = {
  'carriers:list': {
    needs: 'store',
    run: async ({ store }) => {
      const state = await carrierState(store);
      return CARRIER_SPECS.map((c) => carrierView(state, c));
    },
  },

  'carriers:update': {
    needs: 'store',
    run: async ({ store, clock }: StoreContext, input) => {
      const carrier = knownCarrier(input.code);
      const code = carrier.code;
      const creds = credentialNames(carrier);
      if (!creds && (input.client_id !== undefined || input.client_secret !== undefined)) {
        throw new OperationError('invalid', `${CARRIER_NAMES[code]} needs no credentials.`);
      }
      if (creds && !creds.id && input.client_id !== undefined && input.client_id.trim() !== '') {
        throw new OperationError(
          'invalid',
          `${CARRIER_NAMES[code]} has no account id, only a secret (API key).`,
        );
      }
      if (input.endpoint === 'test' && !carrier.test) {
        throw new OperationError(
          'invalid',
          `${CARRIER_NAMES[code]} has no test host; choose production, simulator or custom.`,
        );
      }
      const writes: Array<{ name: SettingName; value: string }> = [];
      if (input.enabled !== undefined)
        writes.push({ name: name(code, 'enabled'), value: input.enabled ? 'on' : 'off' });
      if (input.base_url !== undefined) {
        // An emptied field means "back to the carrier's own host", not "no URL"; a host of one's own is custom.
        const host = input.base_url.trim();
        writes.push({
          name: name(code, 'base_url'),
          value: host || SETTINGS[name(code, 'base_url')].default,
        });
        if (input.endpoint === undefined)
          writes.push({ name: name(code, 'endpoint'), value: host ? 'custom' : 'production' });
      }
      if (input.endpoint !== undefined) {
        writes.push({ name: name(code, 'endpoint'), value: input.endpoint });
        // Production means the carrier's production host, whatever a custom host was before.
        if (input.endpoint === 'production' && input.base_url === undefined) {
          writes.push({ name: name(code, 'base_url'), value: carrier.production });
        }
      }
      if (input.timeout_ms !== undefined)
        writes.push({ name: name(code, 'timeout_ms'), value: String(input.timeout_ms) });
      if (creds?.id && input.client_id !== undefined)
        writes.push({ name: creds.id, value: input.client_id.trim() });
      if (creds && input.client_secret !== undefined)
        writes.push({ name: creds.secret, value: input.client_secret.trim() });
      // All or nothing: a bad URL must not leave the switch flipped.
      await writeSettings(store, clock, writes);
      return carrierView(await carrierState(store), carrier);
    },
  },

  'carriers:check': {
    needs: 'service',
    run: (ctx, input) => {
      const carrier = knownCarrier(input.code);
      return ctx.service.checkCarrier(carrier.code, {
        ...(input.endpoint !== undefined ? { endpoint: input.endpoint } : {}),
        ...(input.step_timeout_ms !== undefined ? { stepTimeoutMs: input.step_timeout_ms } : {}),
      });
    },
  },
} satisfies AreaOperations<'carriers:list' | 'carriers:update' | 'carriers:check'>;
