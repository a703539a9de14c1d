// Carriers screen: every carrier the core knows (enabled or not), its health, base URL and credentials.
// Written so a new carrier needs only its settings and, if it has an account, an entry in CREDENTIALS.
import { CARRIER_CODES, CARRIER_NAMES, type CarrierCode } from '../carriers/types';
import type { CarrierView } from '../contract/operations';
import { SETTINGS, maskSecret, type SettingName } from '../settings/schema';
import type { ServiceContext } from './context';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { writeSetting } from './settings';

/** Carriers whose API needs an account of ours; Russian Post's public calculator needs none. */
const CREDENTIALS: Partial<Record<CarrierCode, { id: SettingName; secret: SettingName }>> = {
  cdek: { id: 'carriers.cdek.client_id', secret: 'carriers.cdek.client_secret' },
};

function knownCarrier(code: string): CarrierCode {
  const found = CARRIER_CODES.find((c) => c === code);
  if (!found)
    throw new OperationError(
      'not_found',
      `No carrier ${JSON.stringify(code)}. Known: ${CARRIER_CODES.join(', ')}.`,
    );
  return found;
}

const enabledName = (code: CarrierCode): SettingName => `carriers.${code}.enabled`;
const baseUrlName = (code: CarrierCode): SettingName => `carriers.${code}.base_url`;

export function carrierView(ctx: ServiceContext, code: CarrierCode): CarrierView {
  const s = ctx.service.settings;
  const health = ctx.service.health.get(code);
  const creds = CREDENTIALS[code];
  const secret = creds ? s.get(creds.secret) : '';
  const clientId = creds ? s.get(creds.id) : '';
  return {
    code,
    name: CARRIER_NAMES[code],
    enabled: s.get(enabledName(code)) === 'on',
    status: health.status,
    last_error: health.lastError,
    last_success_at: health.lastSuccessAt,
    median_latency_ms: health.medianLatencyMs,
    base_url: s.get(baseUrlName(code)),
    default_base_url: SETTINGS[baseUrlName(code)].default,
    credentials: creds
      ? {
          client_id: clientId,
          client_secret_masked: maskSecret(secret),
          configured: clientId !== '' && secret !== '',
        }
      : null,
  };
}

export const carrierOperations = {
  'carriers:list': { needs: 'service', run: (ctx) => CARRIER_CODES.map((code) => carrierView(ctx, code)) },

  'carriers:update': {
    needs: 'service',
    run: (ctx, input) => {
      const code = knownCarrier(input.code);
      const creds = CREDENTIALS[code];
      if (!creds && (input.client_id !== undefined || input.client_secret !== undefined)) {
        throw new OperationError('invalid', `${CARRIER_NAMES[code]} needs no credentials.`);
      }
      const writes: Array<{ name: SettingName; value: string }> = [];
      if (input.enabled !== undefined)
        writes.push({ name: enabledName(code), value: input.enabled ? 'on' : 'off' });
      if (input.base_url !== undefined) {
        // An emptied field means "back to the carrier's own host", not "no URL".
        const name = baseUrlName(code);
        writes.push({ name, value: input.base_url.trim() || SETTINGS[name].default });
      }
      if (creds && input.client_id !== undefined)
        writes.push({ name: creds.id, value: input.client_id.trim() });
      if (creds && input.client_secret !== undefined)
        writes.push({ name: creds.secret, value: input.client_secret.trim() });
      // All or nothing: a bad URL must not leave the switch flipped (nested tx = savepoint).
      ctx.store.tx(() => {
        for (const w of writes) writeSetting(ctx.store, ctx.clock, w.name, w.value);
      });
      return carrierView(ctx, code);
    },
  },
} satisfies AreaOperations<'carriers:list' | 'carriers:update'>;
