// PEK's cabinet API (verified-2026.md §5): HTTP Basic with the cabinet login and an API key from «Ключи API».
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { PEK_LIMITS } from './limits';

const settings = {
  production: 'https://kabinet.pecom.ru/api/v1',
  test: 'https://test-kabinet.pecom.ru/preweb/api/v1',
  credentials: {
    login: { secret: false, doc: 'PEK cabinet login (the Basic auth user).' },
    api_key: { secret: true, doc: 'PEK API key from «Ключи API» (never printed in full).' },
  },
  options: {
    types: {
      schema: z.string().regex(/^(1|3|12)(,(1|3|12))*$/, 'comma-separated PEK products: 3, 1, 12'),
      default: '3',
      secret: false,
      doc: 'PEK products asked for (`types`): 3 LTL Авто, 1 Express Авиа, 12 EasyWay Авто.',
    },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type PekField = CarrierField<typeof settings>;

export const PEK = defineCarrier({
  code: 'pek',
  name: 'ПЭК',
  nameEn: 'PEK',
  settings,
  limits: PEK_LIMITS,
  locations: ['terminal_id'],
  triggers: { timeout: '999951', error: '999952', noService: '999953' },
  // `estDeliveryTime`: calendar days, pickup and delivery included (verified-2026 §5; glook Transfer.php
  // «Срок перевозки (календарные дни)»). No published cut-off.
  days: { kind: 'calendar', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
