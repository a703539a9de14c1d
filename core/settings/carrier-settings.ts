// The settings every carrier has, generated from its descriptor's settings (core/carriers/descriptor.ts), so
// every carrier gets the same switch, endpoint choice, timeout and credential handling without a hand-written
// copy: carriers.<code>.enabled | endpoint | base_url | timeout_ms, plus its account fields (secret ones go
// through the host's secret store and are never printed back in full) and its own options; and, from its
// declared kind of days and cut-off (#21), carriers.<code>.days_kind | cutoff.
import { z } from 'zod';
import type {
  CarrierDays,
  CarrierField,
  CarrierSettingsDescription,
  SettingDef,
} from '../carriers/descriptor';

export type { SettingDef };

/** A carrier's settings description with its code. */
export type CarrierSettingsSpec<C extends string> = { code: C } & CarrierSettingsDescription;

const onOff = z.enum(['on', 'off']);
const url = z.url({ protocol: /^https?$/ });
/** Where a live carrier is asked: its production host, its test host, the built-in simulator, or base_url. */
export const CARRIER_ENDPOINTS = ['production', 'test', 'simulator', 'custom'] as const;
export type CarrierEndpoint = (typeof CARRIER_ENDPOINTS)[number];

type CarrierSettingName<C extends string, K extends string> =
  | `carriers.${C}.enabled`
  | `carriers.${C}.endpoint`
  | `carriers.${C}.base_url`
  | `carriers.${C}.timeout_ms`
  | `carriers.${C}.days_kind`
  | `carriers.${C}.cutoff`
  | `carriers.${C}.${K}`;

/** "HH:MM", 00:00–23:59, Moscow time; empty: no cut-off. */
export const CUTOFF_PATTERN = /^(?:(?:[01]\d|2[0-3]):[0-5]\d)?$/;

/** The hour of a cut-off setting as a number (17:30 → 17.5); 24 (never reached) when there is none. */
export function cutoffHour(value: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  return m ? Number(m[1]) + Number(m[2]) / 60 : 24;
}

/** The settings a carrier's kind of days and cut-off start from (its descriptor's `days`). */
function daySettings(p: string, days: CarrierDays): Record<string, SettingDef> {
  return {
    [`${p}.days_kind`]: {
      schema: z.enum(['working', 'calendar']),
      default: days.kind,
      secret: false,
      doc: 'How its delivery days are counted: working (over the production calendar) or calendar days.',
    },
    [`${p}.cutoff`]: {
      schema: z.string().regex(CUTOFF_PATTERN, 'a time HH:MM (Moscow), or empty for none'),
      default: days.cutoff ?? '',
      secret: false,
      doc: 'Moscow time after which a parcel handed over today counts from the next day (HH:MM; empty: none).',
    },
  };
}

export function carrierSettings<const C extends string, const S extends CarrierSettingsDescription>(
  spec: { code: C } & S,
  days: CarrierDays,
): Record<CarrierSettingName<C, CarrierField<S>>, SettingDef> {
  const p = `carriers.${spec.code}`;
  const out: Record<string, SettingDef> = {
    [`${p}.enabled`]: {
      schema: onOff,
      default: spec.enabledByDefault === false ? 'off' : 'on',
      secret: false,
      doc: `Query ${spec.code}.`,
    },
    [`${p}.endpoint`]: {
      schema: z.enum(CARRIER_ENDPOINTS),
      default: 'production',
      secret: false,
      doc:
        `Live mode: production (${spec.production})` +
        (spec.test ? `, test (${spec.test})` : '') +
        ', simulator (the built-in one), or custom (base_url).',
    },
    [`${p}.base_url`]: {
      schema: url,
      default: spec.production,
      secret: false,
      doc: `Host used when endpoint is custom (default: the production host).`,
    },
    [`${p}.timeout_ms`]: {
      schema: z.coerce.number().int().min(0).max(60_000),
      default: '0',
      secret: false,
      doc: 'Timeout of this carrier in a rates call; 0 = rating.carrier_timeout_ms.',
    },
    ...daySettings(p, days),
  };
  for (const [name, field] of Object.entries<{ secret: boolean; doc: string }>(spec.credentials ?? {})) {
    out[`${p}.${name}`] = { schema: z.string().max(200), default: '', secret: field.secret, doc: field.doc };
  }
  for (const [name, def] of Object.entries<SettingDef>(spec.options ?? {})) out[`${p}.${name}`] = def;
  return out as Record<CarrierSettingName<C, CarrierField<S>>, SettingDef>;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;
type SettingsOf<D> = D extends {
  code: infer C extends string;
  settings: infer S extends CarrierSettingsDescription;
}
  ? Record<CarrierSettingName<C, CarrierField<S>>, SettingDef>
  : never;

/** Every carrier's settings, from the list of descriptors, typed name by name. */
export function allCarrierSettings<
  const L extends readonly { code: string; settings: CarrierSettingsDescription; days: CarrierDays }[],
>(descriptors: L): UnionToIntersection<SettingsOf<L[number]>> {
  return Object.assign(
    {},
    ...descriptors.map((d) => carrierSettings({ code: d.code, ...d.settings }, d.days)),
  ) as UnionToIntersection<SettingsOf<L[number]>>;
}

/**
 * The host a carrier's adapter talks to in live mode; null means "use the built-in simulator". Before #10
 * base_url alone chose the host: a data folder that set it (to a proxy, say) and never chose an endpoint keeps
 * that host, so `production` with a base_url other than the production host means that base_url.
 */
export function liveBaseUrl(
  spec: Pick<CarrierSettingsSpec<string>, 'production' | 'test'>,
  endpoint: string,
  baseUrl: string,
): string | null {
  switch (endpoint) {
    case 'test':
      return spec.test ?? spec.production;
    case 'simulator':
      return null;
    default:
      return baseUrl || spec.production;
  }
}
