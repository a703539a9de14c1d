// Yandex Delivery «другой день» (verified-2026.md §7): a Bearer token alone, no account id.
import { z } from 'zod';
import { defineCarrier, type CarrierField, type CarrierSettingsDescription } from '../descriptor';
import { YANDEX_LIMITS } from './limits';

const settings = {
  production: 'https://b2b-authproxy.taxi.yandex.net',
  test: 'https://b2b.taxi.tst.yandex.net',
  credentials: {
    token: { secret: true, doc: 'Yandex Delivery API token from the cabinet (never printed in full).' },
  },
  options: {
    platform_station_id: {
      schema: z.string().regex(/^[0-9a-zA-Z-]{0,64}$/, 'a Yandex platform_station_id, or empty'),
      default: '',
      secret: false,
      doc: 'Your Yandex shipping warehouse (source station); empty: a drop-off point in the sender city.',
    },
  },
} as const satisfies CarrierSettingsDescription;
/** The names `carrier.ts` reads its settings by. */
export type YandexField = CarrierField<typeof settings>;

export const YANDEX = defineCarrier({
  code: 'yandex',
  name: 'Яндекс Доставка',
  nameEn: 'Yandex Delivery',
  settings,
  limits: YANDEX_LIMITS,
  locations: ['terminal_id'],
  triggers: { timeout: '999961', error: '999962', noService: '999963' },
  // `delivery_days` is not said to be working or calendar days (verified-2026 §7.3): the default, calendar
  // (docs/carriers.md, "Delivery dates"). No published cut-off.
  days: { kind: 'calendar', cutoff: null },
  load: () => import('./carrier').then((m) => m.implementation),
});
