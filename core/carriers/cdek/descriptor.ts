// CDEK (docs/carriers.md, "CDEK"): API v2 with OAuth client credentials; api.edu.cdek.ru is its test host.
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { CDEK_LIMITS } from './limits';

const settings = {
  production: 'https://api.cdek.ru/v2',
  test: 'https://api.edu.cdek.ru/v2',
  credentials: {
    client_id: { secret: false, doc: 'CDEK account.' },
    client_secret: { secret: true, doc: 'CDEK secure password (never printed in full).' },
  },
  options: {
    contract_type: {
      schema: z.enum(['1', '2']),
      default: '1',
      secret: false,
      doc: 'CDEK contract type: 1 online store, 2 delivery; the other is tried when the first yields no tariff.',
    },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type CdekField = CarrierField<typeof settings>;

export const CDEK = defineCarrier({
  code: 'cdek',
  name: 'СДЭК',
  nameEn: 'CDEK',
  settings,
  limits: CDEK_LIMITS,
  locations: ['postal_code', 'cdek_city_code'],
  triggers: { timeout: '999911', error: '999912', noService: '999913' },
  // CDEK answers both kinds (protocols.md §2.9): `period_min/max` in working days, `calendar_min/max` in calendar
  // days; the mapper takes calendar_* whenever CDEK sends them, so calendar is the carrier's kind, and a rate
  // read from period_* says `days_kind: 'working'` itself. No cut-off hour is published (a drop-off point takes
  // parcels until it closes): none.
  days: { kind: 'calendar', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
