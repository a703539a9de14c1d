// Every setting RateDesk stores, with its default and validation. The settings table holds only values
// that differ from these defaults, as text; this file is the one place that knows their meaning.
import { z } from 'zod';
import { CARRIER_DESCRIPTORS } from '../carriers/built-in';
import { StoredCalendarYears } from '../contract/operations/calendar';
import { allCarrierSettings, type SettingDef } from './carrier-settings';

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
  'rating.max_in_flight_per_account': {
    schema: z.coerce.number().int().min(1).max(1_000),
    default: '16',
    secret: false,
    doc:
      "Rates calls one account may have in flight at once; more get 429 with Retry-After. The carriers' " +
      "connections and quotas are the whole install's: one account's hung calls must not hold them all.",
  },
  'rating.cache_sharing': {
    schema: z.enum(['account', 'shared']),
    default: 'account',
    secret: false,
    doc:
      'Whose cached rates may answer a quote: only the account that asked (a hit answers in milliseconds, so a ' +
      'shared cache tells one account what others asked), or every account of this install (one company).',
  },
  'rating.cache_ttl_ms': {
    schema: ms(0, 86_400_000),
    default: '300000',
    secret: false,
    doc: 'How long an identical shipment is answered from the rate cache, per carrier (0: no cache).',
  },
  // #21: pickup points (core/points/search.ts). A directory older than this is fetched again on the next
  // search, which is answered from the old copy meanwhile; a failed fetch keeps the old copy.
  'points.refresh_hours': {
    schema: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30),
    default: '24',
    secret: false,
    doc: "How often a carrier's pickup-point directory of a town is fetched again, hours (the old one serves meanwhile).",
  },
  ...allCarrierSettings(CARRIER_DESCRIPTORS),
  // Written by calendar:import (`npm run admin -- calendar import FILE`), one year at a time: the years it
  // holds override the shipped production calendar (core/quote/calendar/). Reset it to drop every import.
  'calendar.imported': {
    schema: z
      .string()
      .refine(
        (v) => StoredCalendarYears.safeParse(safeJson(v)).success,
        'a JSON object of imported calendar years (written by calendar:import)',
      ),
    default: '{}',
    secret: false,
    doc: 'Production calendar years imported over the shipped ones (JSON; calendar import).',
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
  // The desk's link to a company server (#20): local to this desk, never sent to the server, changed only
  // through company:join/leave (core/desk/company-link.ts). Empty: local mode.
  'company.url': {
    schema: z.string().max(500),
    default: '',
    secret: false,
    doc: 'The company server this desk joined (empty: local mode).',
  },
  'company.fingerprint': {
    schema: z.string().max(200),
    default: '',
    secret: false,
    doc: "The company server certificate's SHA-256, pinned when the desk joined.",
  },
  'company.ca_pem': {
    schema: z.string().max(20_000),
    default: '',
    secret: false,
    doc: "The company CA (PEM) the server's certificate is checked against, instead of a pin.",
  },
  'company.token': {
    schema: z.string().max(200),
    default: '',
    secret: true,
    doc: "This desk's device token on the company server (kept by the secret store).",
  },
  'company.device_name': {
    schema: z.string().max(80),
    default: '',
    secret: false,
    doc: 'What this desk called itself when it joined.',
  },
  'company.user': { schema: z.string().max(64), default: '', secret: false, doc: 'Who signed in.' },
  'company.role': {
    schema: z.enum(['', 'clerk', 'admin']),
    default: '',
    secret: false,
    doc: "The signed-in user's role when the desk joined (the server decides on every call).",
  },
  'ui.warehouse': {
    schema: z.string().regex(/^(\d{1,15}|all)?$/, 'a warehouse id, "all" or empty'),
    default: '',
    secret: false,
    doc:
      'The warehouse this desk last quoted from (its id; "all": «из всех складов»; empty: none). Desk-local: ' +
      'each computer remembers its own, never sent to a company server.',
  },
} as const satisfies Record<string, SettingDef>;

/** Settings of this desk alone: kept in its local store even in company mode (the router's rule, #20). */
export function isDeskLocalSetting(name: string): boolean {
  return name.startsWith('ui.') || name.startsWith('company.');
}

/** Changed only through company:join/leave, never by settings:set (they would half-join a server). */
export function isCompanyLinkSetting(name: string): boolean {
  return name.startsWith('company.');
}

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
