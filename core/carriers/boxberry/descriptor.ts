// Boxberry (docs/carriers.md, "Boxberry"): api.boxberry.ru/json.php; test-ecom.boxberry.ru is the official
// plugin's debug host (verified-2026 §3). The account is one per-contract token, a secret without an id.
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { BOXBERRY_LIMITS } from './limits';

const settings = {
  production: 'https://api.boxberry.ru/json.php',
  test: 'https://test-ecom.boxberry.ru/json.php',
  credentials: {
    token: { secret: true, doc: 'Boxberry API token from the personal cabinet (never printed in full).' },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type BoxberryField = CarrierField<typeof settings>;

export const BOXBERRY = defineCarrier({
  code: 'boxberry',
  name: 'Boxberry',
  nameEn: 'Boxberry',
  settings,
  limits: BOXBERRY_LIMITS,
  locations: ['boxberry_city_code'],
  triggers: { timeout: '999921', error: '999922', noService: '999923' },
  // `DeliveryPeriod` in working days: Boxberry's own plugin shows it as «N рабочих дней» (verified-2026 §3,
  // audit B10; gwinn's SDK says calendar days — disputed, the vendor's text wins). No published cut-off.
  days: { kind: 'working', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
