// Every setting RateDesk stores, with its default and validation. The settings table holds only values
// that differ from these defaults, as text; this file is the one place that knows their meaning.
import { z } from 'zod';
import { carrierSettings, type CarrierSettingsSpec, type SettingDef } from './carrier-settings';

/** The two built-in carriers' settings descriptions (hosts, credentials); the registry reads them too. */
export const RUSSIAN_POST_SETTINGS = {
  code: 'russian-post',
  production: 'https://tariff.pochta.ru',
} as const satisfies CarrierSettingsSpec<'russian-post'>;
export const CDEK_SETTINGS = {
  code: 'cdek',
  production: 'https://api.cdek.ru/v2',
  test: 'https://api.edu.cdek.ru/v2',
  credentials: {
    client_id: { secret: false, doc: 'CDEK account.' },
    client_secret: { secret: true, doc: 'CDEK secure password (never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'cdek'>;

/**
 * Boxberry (docs/carriers.md, "Boxberry"): api.boxberry.ru/json.php; test-ecom.boxberry.ru is the official
 * plugin's debug host (verified-2026 §3). The account is one per-contract token, a secret without an id.
 */
export const BOXBERRY_SETTINGS = {
  code: 'boxberry',
  production: 'https://api.boxberry.ru/json.php',
  test: 'https://test-ecom.boxberry.ru/json.php',
  credentials: {
    token: { secret: true, doc: 'Boxberry API token from the personal cabinet (never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'boxberry'>;
/** 5Post (docs/carriers.md, "5Post"): X5's omni API; the account is one API key, exchanged for a JWT. */
export const FIVEPOST_SETTINGS = {
  code: '5post',
  production: 'https://api-omni.x5.ru',
  test: 'https://api-preprod-omni.x5.ru',
  credentials: {
    apikey: { secret: true, doc: '5Post API key (never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'5post'>;
/** DPD Russia's SOAP services (calculator2 under them); wstest is DPD's own test host (protocols.md §6.2). */
export const DPD_SETTINGS = {
  code: 'dpd',
  production: 'https://ws.dpd.ru/services',
  test: 'https://wstest.dpd.ru/services',
  credentials: {
    client_number: { secret: false, doc: 'DPD client number (clientNumber, digits).' },
    client_key: { secret: true, doc: 'DPD client key (clientKey; never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'dpd'>;
/** Деловые Линии: an API key alone (appkey in every body), no sandbox host (protocols.md §4.2). */
export const DELLIN_SETTINGS = {
  code: 'dellin',
  production: 'https://api.dellin.ru',
  credentials: {
    appkey: { secret: true, doc: 'Dellin API key (appkey; never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'dellin'>;
/**
 * PEK's cabinet API (verified-2026.md §5): HTTP Basic with the cabinet login and an API key from «Ключи API».
 */
export const PEK_SETTINGS = {
  code: 'pek',
  production: 'https://kabinet.pecom.ru/api/v1',
  test: 'https://test-kabinet.pecom.ru/preweb/api/v1',
  credentials: {
    login: { secret: false, doc: 'PEK cabinet login (the Basic auth user).' },
    api_key: { secret: true, doc: 'PEK API key from «Ключи API» (never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'pek'>;
/** Yandex Delivery «другой день» (verified-2026.md §7): a Bearer token alone, no account id. */
export const YANDEX_SETTINGS = {
  code: 'yandex',
  production: 'https://b2b-authproxy.taxi.yandex.net',
  test: 'https://b2b.taxi.tst.yandex.net',
  credentials: {
    token: { secret: true, doc: 'Yandex Delivery API token from the cabinet (never printed in full).' },
  },
} as const satisfies CarrierSettingsSpec<'yandex'>;

/** Every built-in carrier's settings description, in display order (the operations and the CLI read these). */
export const BUILT_IN_CARRIER_SETTINGS = [
  CDEK_SETTINGS,
  RUSSIAN_POST_SETTINGS,
  BOXBERRY_SETTINGS,
  DPD_SETTINGS,
  DELLIN_SETTINGS,
  PEK_SETTINGS,
  YANDEX_SETTINGS,
  FIVEPOST_SETTINGS,
] as const;

const onOff = z.enum(['on', 'off']);

export const BoxPreset = z.strictObject({
  name: z.string().min(1).max(40),
  length_cm: z.number().gt(0).max(1000),
  width_cm: z.number().gt(0).max(1000),
  height_cm: z.number().gt(0).max(1000),
});
export const BoxPresets = z.array(BoxPreset).max(50);
export type BoxPreset = z.infer<typeof BoxPreset>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
// Below 1024 needs administrator rights on every desktop OS; 0 lets the system pick a free port.
const port = z.coerce
  .number()
  .int()
  .max(65535)
  .refine((p) => p === 0 || p >= 1024, 'choose a port from 1024 to 65535 (or 0 for any free port)');
const ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const SETTINGS = {
  sandbox: {
    schema: onOff,
    default: 'on',
    secret: false,
    doc: 'Simulated carriers (no network, prices not real).',
  },
  'listener.enabled': { schema: onOff, default: 'on', secret: false, doc: 'Serve the /v1 HTTP API.' },
  'listener.host': {
    schema: z.string().min(1),
    default: '127.0.0.1',
    secret: false,
    doc: 'Bind address. Anything but loopback also needs --allow-remote.',
  },
  'listener.port': { schema: port, default: '8787', secret: false, doc: 'TCP port of the /v1 API.' },
  'rating.deadline_ms': {
    schema: ms(100, 60_000),
    default: '8000',
    secret: false,
    doc: 'Deadline of one rates call.',
  },
  'rating.carrier_timeout_ms': {
    schema: ms(100, 60_000),
    default: '5000',
    secret: false,
    doc: 'Timeout of one carrier inside a rates call.',
  },
  'rating.breaker_cooldown_ms': {
    schema: ms(1_000, 3_600_000),
    default: '30000',
    secret: false,
    doc: 'How long a carrier is skipped after 3 consecutive failures before one request tries it again.',
  },
  'rating.cache_ttl_ms': {
    schema: ms(0, 86_400_000),
    default: '300000',
    secret: false,
    doc: 'How long an identical shipment is answered from the rate cache, per carrier (0: no cache).',
  },
  ...carrierSettings(RUSSIAN_POST_SETTINGS),
  'carriers.russian-post.objects': {
    schema: z.string().regex(/^\d{1,6}(,\d{1,6})*$/, 'comma-separated Russian Post object codes'),
    default: '27030,47030,23030,24030,7030',
    secret: false,
    doc: 'Russian Post products (object codes without declared value) that quotes ask for.',
  },
  ...carrierSettings(CDEK_SETTINGS),
  'carriers.cdek.contract_type': {
    schema: z.enum(['1', '2']),
    default: '1',
    secret: false,
    doc: 'CDEK contract type: 1 online store, 2 delivery; the other is tried when the first yields no tariff.',
  },
  ...carrierSettings(BOXBERRY_SETTINGS),
  ...carrierSettings(FIVEPOST_SETTINGS),
  'carriers.5post.overweight': {
    schema: z.enum(['per_started_kg', 'proportional']),
    default: 'per_started_kg',
    secret: false,
    doc:
      '5Post price above 3 kg: the extra rate per started kilogram (integration guide) or pro rata per gram ' +
      '(lapaygroup SDK); the sources disagree.',
  },
  ...carrierSettings(DPD_SETTINGS),
  'carriers.dpd.contract_currency': {
    schema: z.string().regex(/^[A-Z]{3}$/, 'a three-letter currency code, e.g. RUB'),
    default: 'RUB',
    secret: false,
    doc: 'Currency of the DPD contract: DPD prices in it without naming it; anything but RUB is refused.',
  },
  ...carrierSettings(DELLIN_SETTINGS),
  ...carrierSettings(PEK_SETTINGS),
  'carriers.pek.types': {
    schema: z.string().regex(/^(1|3|12)(,(1|3|12))*$/, 'comma-separated PEK products: 3, 1, 12'),
    default: '3',
    secret: false,
    doc: 'PEK products asked for (`types`): 3 LTL Авто, 1 Express Авиа, 12 EasyWay Авто.',
  },
  ...carrierSettings(YANDEX_SETTINGS),
  'carriers.yandex.platform_station_id': {
    schema: z.string().regex(/^[0-9a-zA-Z-]{0,64}$/, 'a Yandex platform_station_id, or empty'),
    default: '',
    secret: false,
    doc: 'Your Yandex shipping warehouse (source station); empty: a drop-off point in the sender city.',
  },
  'ui.language': { schema: z.enum(['ru', 'en']), default: 'ru', secret: false, doc: 'Desktop UI language.' },
  'ui.theme': {
    schema: z.enum(['system', 'light', 'dark']),
    default: 'system',
    secret: false,
    doc: 'Desktop UI theme.',
  },
  'ui.box_presets': {
    schema: z
      .string()
      .refine(
        (v) => BoxPresets.safeParse(safeJson(v)).success,
        'a JSON list of {name, length_cm, width_cm, height_cm}',
      ),
    default: JSON.stringify([
      { name: 'S', length_cm: 20, width_cm: 15, height_cm: 10 },
      { name: 'M', length_cm: 30, width_cm: 20, height_cm: 10 },
      { name: 'L', length_cm: 40, width_cm: 30, height_cm: 20 },
      { name: 'XL', length_cm: 60, width_cm: 40, height_cm: 40 },
    ]),
    secret: false,
    doc: 'Box presets of the quote form (JSON).',
  },
  'ui.default_carriers': {
    schema: z.string().regex(/^([a-z0-9-]+(,[a-z0-9-]+)*)?$/),
    default: '',
    secret: false,
    doc: 'Carriers preselected in the quote form, comma-separated (empty: all).',
  },
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTINGS;

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTINGS, name);
}

/** Validates a value given as text (CLI, IPC) and returns its canonical text form, or an error message. */
export function parseSetting(
  name: SettingName,
  value: string,
): { ok: true; value: string } | { ok: false; error: string } {
  const r = SETTINGS[name].schema.safeParse(value);
  if (!r.success) return { ok: false, error: `${name}: ${r.error.issues[0]?.message ?? 'invalid value'}` };
  return { ok: true, value: String(r.data) };
}

/** A secret shown back to a person: never in full. */
export function maskSecret(value: string): string {
  if (value === '') return '';
  return value.length <= 4 ? '••••' : `••••${value.slice(-4)}`;
}
