// Carriers as the desk and the admin CLI manage them: every built-in carrier, its health, where it is asked
// (endpoint, host), its own timeout and its credentials.
import { z } from 'zod';
import { CarrierStatus } from '../v1';
import { NoInput, Timestamp } from './common';

/** Where a live carrier is asked (settings carriers.<code>.endpoint); sandbox mode always uses the simulator. */
export const CarrierEndpoint = z.enum(['production', 'test', 'simulator', 'custom']);
export type CarrierEndpoint = z.output<typeof CarrierEndpoint>;
/** A carrier's own timeout in a rates call; 0 means the general rating.carrier_timeout_ms. */
export const CarrierTimeout = z.int('must be a whole number of milliseconds').min(0).max(60_000);

export const CarrierView = z.object({
  code: z.string(),
  /** The carrier's name in the Russian UI (the one /v1 gives as `carrier_name`). */
  name: z.string(),
  /** Its name in the English UI («CDEK» for «СДЭК»): every carrier name the desk shows follows the UI language. */
  name_en: z.string(),
  enabled: z.boolean(),
  status: CarrierStatus,
  last_error: z.string().nullable(),
  last_success_at: Timestamp.nullable(),
  median_latency_ms: z.number().nullable(),
  /** Live mode: where the carrier is asked. Sandbox mode talks to the built-in simulators whatever this says. */
  endpoint: CarrierEndpoint,
  /** The host used for endpoint `custom` (and the one actually asked, for production and test). */
  base_url: z.string(),
  default_base_url: z.string(),
  /**
   * Why the parcel limits checked before a call are not from the carrier's own published source, in both UI
   * languages; null when they are.
   */
  limits_unverified: z.object({ ru: z.string(), en: z.string() }).nullable(),
  /** The carrier's published hosts: production, and its test host when it has one. */
  hosts: z.object({ production: z.string(), test: z.string().nullable() }),
  /** This carrier's own timeout (0: the general one, default_timeout_ms). */
  timeout_ms: z.number(),
  default_timeout_ms: z.number(),
  /** Null for carriers that need no account (Russian Post's public tariff calculator). */
  credentials: z
    .object({
      /** Null when the carrier's account is a secret alone (an API key or token). */
      client_id: z.string().nullable(),
      /** The carrier's own names of the two fields (`client_number`, `login`, `token`, `appkey` …), for labels. */
      id_field: z.string().nullable(),
      secret_field: z.string(),
      /** `••••abcd` or '' when none is stored; the full secret never leaves the core. */
      client_secret_masked: z.string(),
      configured: z.boolean(),
    })
    .nullable(),
});
export type CarrierView = z.output<typeof CarrierView>;

/** What a step of a live check proves (core/carriers/check.ts declares the steps, per carrier). */
export const CHECK_STEP_KINDS = ['auth', 'directory', 'size', 'route'] as const;
export const CheckStepKind = z.enum(CHECK_STEP_KINDS);

/** One step of `carriers check`: what it asked, how it went, what it saw, and what to look at if it failed. */
export const CarrierCheckStepReport = z.object({
  kind: CheckStepKind,
  /** In the carrier's own words: "POST /oauth/token", "ListCitiesFull", "Москва → Казань". */
  subject: z.string(),
  /** `skipped`: an earlier step failed, and this one needs what that one would have proved. */
  status: z.enum(['passed', 'failed', 'skipped']),
  ms: z.number().nullable(),
  measure: z
    .object({
      bytes: z.number().optional(),
      limit_bytes: z.number().optional(),
      items: z.number().optional(),
      cheapest_kopecks: z.number().optional(),
      note: z.object({ ru: z.string(), en: z.string() }).optional(),
    })
    .nullable(),
  /** The carrier's answer (or ours: a timeout, a refused connection) when the step failed. */
  error: z.string().nullable(),
  hint: z.object({ ru: z.string(), en: z.string() }),
});
export type CarrierCheckStepReport = z.output<typeof CarrierCheckStepReport>;

export const CarrierCheckReport = z.object({
  code: z.string(),
  name: z.string(),
  /** Where it was checked: the built-in simulator (sandbox mode or endpoint simulator), or a host. */
  target: z.object({
    endpoint: z.enum(['sandbox', ...CarrierEndpoint.options]),
    base_url: z.string().nullable(),
  }),
  ok: z.boolean(),
  started_at: Timestamp,
  ms: z.number(),
  steps: z.array(CarrierCheckStepReport),
});
export type CarrierCheckReport = z.output<typeof CarrierCheckReport>;

export const carrierOperations = {
  'carriers:list': { input: NoInput, output: z.array(CarrierView) },
  'carriers:update': {
    input: z.strictObject({
      code: z.string().min(1).max(40),
      enabled: z.boolean().optional(),
      endpoint: CarrierEndpoint.optional(),
      /** Setting it alone also sets endpoint `custom` (an emptied field: back to the production host). */
      base_url: z.string().max(2000).optional(),
      timeout_ms: CarrierTimeout.optional(),
      client_id: z.string().max(200).optional(),
      /** '' clears it. */
      client_secret: z.string().max(200).optional(),
    }),
    output: CarrierView,
  },
  /** A live check of one carrier against the endpoint and account in settings (or the endpoint given). */
  'carriers:check': {
    input: z.strictObject({
      code: z.string().min(1).max(40),
      endpoint: CarrierEndpoint.optional(),
      /** Each step's own bound; 20 s by default (a directory download may be slower than a quote). */
      step_timeout_ms: z.int().min(1_000).max(120_000).optional(),
    }),
    output: CarrierCheckReport,
  },
} as const;
