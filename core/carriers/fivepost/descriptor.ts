// 5Post (docs/carriers.md, "5Post"): X5's omni API; the account is one API key, exchanged for a JWT.
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { FIVEPOST_LIMITS } from './limits';

const settings = {
  production: 'https://api-omni.x5.ru',
  test: 'https://api-preprod-omni.x5.ru',
  credentials: {
    apikey: { secret: true, doc: '5Post API key (never printed in full).' },
  },
  options: {
    overweight: {
      schema: z.enum(['per_started_kg', 'proportional']),
      default: 'per_started_kg',
      secret: false,
      doc:
        '5Post price above 3 kg: the extra rate per started kilogram (integration guide) or pro rata per gram ' +
        '(lapaygroup SDK); the sources disagree.',
    },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type FivepostField = CarrierField<typeof settings>;

export const FIVEPOST = defineCarrier({
  code: '5post',
  name: '5Post',
  nameEn: '5Post',
  settings,
  limits: FIVEPOST_LIMITS,
  locations: ['postal_code'],
  triggers: { timeout: '999971', error: '999972', noService: '999973' },
  // `deliverySL[].sl` has no stated unit (verified-2026 §8): the default, calendar (docs/carriers.md,
  // "Delivery dates"). No published cut-off.
  days: { kind: 'calendar', cutoff: null },
  // Quoted from its pickup-point catalogue: its simulator plants points at the trigger indexes instead
  // (docs/carriers.md, "5Post", sandbox triggers).
  quotesFromLocalData: true,
  load: () => import('./carrier').then((m) => m.implementation),
});
