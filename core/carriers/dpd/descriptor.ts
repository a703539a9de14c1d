// DPD Russia's SOAP services (calculator2 under them); wstest is DPD's own test host (protocols.md §6.2).
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { DPD_LIMITS, DPD_LIMITS_UNVERIFIED_REASON } from './limits';

const settings = {
  production: 'https://ws.dpd.ru/services',
  test: 'https://wstest.dpd.ru/services',
  credentials: {
    client_number: { secret: false, doc: 'DPD client number (clientNumber, digits).' },
    client_key: { secret: true, doc: 'DPD client key (clientKey; never printed in full).' },
  },
  options: {
    contract_currency: {
      schema: z.string().regex(/^[A-Z]{3}$/, 'a three-letter currency code, e.g. RUB'),
      default: 'RUB',
      secret: false,
      doc: 'Currency of the DPD contract: DPD prices in it without naming it; anything but RUB is refused.',
    },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type DpdField = CarrierField<typeof settings>;

export const DPD = defineCarrier({
  code: 'dpd',
  name: 'DPD',
  nameEn: 'DPD',
  settings,
  limits: DPD_LIMITS,
  limitsUnverified: DPD_LIMITS_UNVERIFIED_REASON,
  locations: ['kladr_id'],
  triggers: { timeout: '999931', error: '999932', noService: '999933' },
  // DPD's `days` are undocumented as working or calendar days (protocols.md §10): the default, calendar, is
  // what the figure says read plainly (docs/carriers.md, "Delivery dates"). No published cut-off.
  days: { kind: 'calendar', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
