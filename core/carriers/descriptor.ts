// What a carrier is, declared once in its own folder (core/carriers/<code>/descriptor.ts): its code and names,
// its settings (hosts, account fields, options), its published limits, the places it asks the location
// resolver for, its sandbox triggers, and how its heavy half loads (adapter, live check, simulator). Every list
// RateDesk keeps of carriers (codes, names, settings, triggers, the Carriers screen, the registry) is derived
// from the descriptors in core/carriers/built-in.ts, so a ninth carrier is its folder plus one line there, and
// a descriptor missing a part does not compile (test/unit/core/carriers/descriptor.test.ts proves it).
// This half is data only: the admin CLI and the settings schema read it without loading any adapter, HTTP
// client or simulator; `load()` brings the rest when a carrier is actually built, checked or simulated.
import type { z } from 'zod';
import type { LocationResolver, LocationWant } from '../locations/resolver';
import type { Logger } from '../util/logger';
import type { CarrierCheckStep } from './check';
import type { CarrierCoordinationStore } from '../store/port';
import type { FivePostCatalogueStore } from './fivepost/catalogue-store';
import type { CarrierLimits } from './limits';
import type { SimulatorHandle } from './simulators/handle';
import type { CarrierAdapter } from './types';

/**
 * One setting: its schema, default, whether it is secret, and its one-line doc. Every setting of RateDesk has
 * this shape (core/settings/schema.ts); it is declared here, where a carrier's options use it, so that carriers
 * do not import the settings layer that reads their descriptors (docs/architecture.md, "Layers").
 */
export interface SettingDef {
  schema: z.ZodType;
  default: string;
  secret: boolean;
  doc: string;
}

/** An account field: secret ones go through the host's secret store and are never printed back in full. */
export interface CredentialDef {
  secret: boolean;
  doc: string;
}

/** Recipient postal codes that make this carrier's simulator hang, fail, or say "no service" (docs/api.md). */
export interface SandboxTriggerBlock {
  timeout: string;
  error: string;
  noService: string;
}

export interface CarrierSettingsDescription {
  /** The carrier's production host (the default). */
  production: string;
  /** The carrier's own test host, when it has one (CDEK's api.edu.cdek.ru). */
  test?: string;
  /** Account fields (carriers.<code>.<field>). */
  credentials?: Readonly<Record<string, CredentialDef>>;
  /** Further settings of this carrier (carriers.<code>.<option>): choices the sources leave open. */
  options?: Readonly<Record<string, SettingDef>>;
  /** Whether a new data folder queries it (default true); false while a carrier is being brought in. */
  enabledByDefault?: boolean;
}

/**
 * How a carrier counts its delivery days and when it stops taking today's parcels (#21 item 3): `working`
 * days skip the production calendar's days off (core/quote/calendar/), `calendar` days count every day.
 * `cutoff` is the hour (Moscow, "HH:MM") after which a parcel handed over today counts from the next day;
 * null: none published. Each carrier's choice carries its source; the settings `carriers.<code>.days_kind`
 * and `carriers.<code>.cutoff` start from these (core/settings/carrier-settings.ts).
 */
export interface CarrierDays {
  kind: 'working' | 'calendar';
  cutoff: `${number}:${number}` | null;
}

/** Where an adapter is pointed. */
export interface AdapterTarget {
  baseUrl: string;
  /** The built-in simulator answers (sandbox mode, or endpoint = simulator): use its test account. */
  simulated: boolean;
}

/**
 * What every adapter shares with the rest of the service, one per service: the location resolver (with its
 * SQLite cache in the running service, so what a carrier's directory said survives restarts and adapter
 * rebuilds), the logger (unknown carrier error codes), the store's pickup-point catalogue for 5Post (so a
 * restart quotes at once; core/store/sqlite/pickup-catalogue.ts), and the service clock's wall time (dates a
 * carrier wants, such as Dellin's produce date).
 */
export interface CarrierEnvironment {
  locations: LocationResolver;
  logger: Logger;
  /** Where 5Post keeps its pickup-point catalogue; in memory without it. */
  pickupCatalogue?: FivePostCatalogueStore;
  /**
   * A company server's shared carrier state (the store's): quotas, once-only downloads and tokens held for
   * every instance together. Absent on the desk: this process's own limiters and caches are the whole truth.
   */
  coordination?: CarrierCoordinationStore;
  now?: () => Date;
}

/** A carrier's own settings, read by field name (`client_id`, not `carriers.cdek.client_id`). */
export interface CarrierSettingsReader<F extends string> {
  get(field: F): string;
}

/** The heavy half of a carrier, loaded on first need: its adapter, its live check and its simulator. */
export interface CarrierImplementation<F extends string> {
  create(
    target: AdapterTarget,
    settings: CarrierSettingsReader<F>,
    environment: CarrierEnvironment,
  ): CarrierAdapter;
  /** The steps of `carriers check` against the same target and settings (core/carriers/check.ts). */
  checks(
    target: AdapterTarget,
    settings: CarrierSettingsReader<F>,
    environment: CarrierEnvironment,
  ): readonly CarrierCheckStep[];
  startSimulator(options: { latencyMs: number }): Promise<SimulatorHandle>;
}

/** The field names a carrier's settings declare: its account fields and its options. */
export type CarrierField<S extends CarrierSettingsDescription> =
  | (S['credentials'] extends Readonly<Record<infer K, CredentialDef>> ? K & string : never)
  | (S['options'] extends Readonly<Record<infer K, SettingDef>> ? K & string : never);

export interface CarrierDescriptor<
  C extends string = string,
  S extends CarrierSettingsDescription = CarrierSettingsDescription,
> {
  /** Wire code used in /v1 (`carrier` of a Rate, items of the `carriers` filter), settings and history. */
  code: C;
  /** Display name, Russian: it goes to `carrier_name` and the Russian UI. */
  name: string;
  /** Display name in the English UI. */
  nameEn: string;
  settings: S;
  /** The carrier's published parcel limits (the platform checks them before any call), with their sources. */
  limits: CarrierLimits;
  /**
   * Why the limits are not the carrier's own published figures, where they are not (DPD Russia publishes
   * none; its are DPDgroup's): the Carriers screen marks them unconfirmed and shows this. Absent: verified.
   */
  limitsUnverified?: { ru: string; en: string };
  /** What the adapter asks the location resolver for; the platform hands it a resolver that answers only these. */
  locations: readonly LocationWant[];
  triggers: SandboxTriggerBlock;
  /** Its kind of days and cut-off hour, with their source in a comment. */
  days: CarrierDays;
  /**
   * Quotes from data it keeps (5Post: its pickup-point catalogue), so a quote makes no call to the carrier;
   * per-request network faults cannot reach it (the carrier chaos suite leaves such carriers out).
   */
  quotesFromLocalData?: true;
  load(): Promise<CarrierImplementation<CarrierField<S>>>;
}

/** Declares a carrier; the identity, typed so that a missing or mistyped part is a compile error here. */
export function defineCarrier<const C extends string, const S extends CarrierSettingsDescription>(
  descriptor: CarrierDescriptor<C, S>,
): CarrierDescriptor<C, S> {
  return descriptor;
}
