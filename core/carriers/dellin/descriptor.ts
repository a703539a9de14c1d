// Деловые Линии (docs/carriers.md): an API key alone (appkey in every body), no sandbox host (protocols.md §4.2).
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { DELLIN_LIMITS } from './limits';

const settings = {
  production: 'https://api.dellin.ru',
  credentials: {
    appkey: { secret: true, doc: 'Dellin API key (appkey; never printed in full).' },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type DellinField = CarrierField<typeof settings>;

export const DELLIN = defineCarrier({
  code: 'dellin',
  name: 'Деловые Линии',
  nameEn: 'Dellin',
  settings,
  limits: DELLIN_LIMITS,
  locations: ['kladr_id', 'terminal_id'],
  triggers: { timeout: '999941', error: '999942', noService: '999943' },
  // Dellin answers dates, and the mapper turns them into calendar days from the request date (docs/carriers.md,
  // "Деловые Линии"); its own produce date already moves past its cut-off and days off (180012), so no cut-off
  // is added here.
  days: { kind: 'calendar', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
