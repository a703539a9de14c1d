// Russian Post (docs/carriers.md, "Russian Post"): the public tariff calculator, no account, no test host.
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { RUSSIAN_POST_LIMITS } from './limits';

const settings = {
  production: 'https://tariff.pochta.ru',
  options: {
    objects: {
      schema: z.string().regex(/^\d{1,6}(,\d{1,6})*$/, 'comma-separated Russian Post object codes'),
      default: '27030,47030,23030,24030,7030',
      secret: false,
      doc: 'Russian Post products (object codes without declared value) that quotes ask for.',
    },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type RussianPostField = CarrierField<typeof settings>;

export const RUSSIAN_POST = defineCarrier({
  code: 'russian-post',
  name: 'Почта России',
  nameEn: 'Russian Post',
  settings,
  limits: RUSSIAN_POST_LIMITS,
  locations: ['postal_code'],
  triggers: { timeout: '999901', error: '999902', noService: '999903' },
  // Russian Post's control terms (`delivery.min/max`) are calendar days (docs/carriers.md, "Russian Post"). Its
  // acceptance cut-off is per office (`postoffice[].cutoff` of the delivery API, protocols.md §1): none here.
  days: { kind: 'calendar', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
