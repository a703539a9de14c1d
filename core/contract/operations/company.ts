// Company desks (#20): desk users and their roles, enrolled devices, named warehouses (origins), the audit
// log, and the desk's own link to a company server. Renderer-safe: zod and constants only.
import { z } from 'zod';
import { Id, NoInput, Timestamp } from './common';
import { DeskQuoteResult, QuoteKey } from './quotes';
import { QuoteRequest } from '../quote-ext';

// ---------------------------------------------------------------------------------------------------
// Users, roles, devices
// ---------------------------------------------------------------------------------------------------

export const DESK_ROLES = ['clerk', 'admin'] as const;
export const DeskRole = z.enum(DESK_ROLES);
export type DeskRole = z.output<typeof DeskRole>;

/** A person's sign-in name: shown in History and the audit log, typed in shell commands. */
export const UserName = z
  .string()
  .regex(/^[\p{L}\p{N}_.@-]{1,64}$/u, 'must be 1 to 64 letters, digits, "_", ".", "@" or "-"');

export const UserView = z.object({
  id: Id,
  name: z.string(),
  role: DeskRole,
  disabled: z.boolean(),
  created_at: Timestamp,
  /** Enrolled devices not revoked. */
  devices: z.int().min(0),
});
export type UserView = z.output<typeof UserView>;

export const DeviceView = z.object({
  id: z.string(),
  user: z.string(),
  /** What the desk called itself when it enrolled («Склад Подольск, касса 2»). */
  name: z.string(),
  created_at: Timestamp,
  last_seen_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
});
export type DeviceView = z.output<typeof DeviceView>;

/** Minutes an enrolment code stays valid: 15 by default, a day at most. */
export const ENROLMENT_TTL_MINUTES = { default: 15, max: 24 * 60 } as const;

export const EnrolmentCode = z.object({
  user: z.string(),
  /** Shown once; only its digest is kept. Single use. */
  code: z.string(),
  expires_at: Timestamp,
});
export type EnrolmentCode = z.output<typeof EnrolmentCode>;

/** A code as typed: letters and digits, dashes and spaces ignored, case-insensitive. */
export const EnrolmentCodeText = z.string().min(1).max(64);

// ---------------------------------------------------------------------------------------------------
// Warehouses
// ---------------------------------------------------------------------------------------------------

export const WarehouseFields = z.strictObject({
  name: z.string().trim().min(1).max(80),
  city: z.string().trim().min(1).max(120),
  postal_code: z
    .string()
    .regex(/^\d{6}$/, 'must be 6 digits')
    .nullable()
    .default(null),
  address: z.string().trim().max(300).default(''),
  /** Carrier codes a quote from here asks by default; empty: the desk's own default. */
  default_carriers: z.array(z.string().min(1).max(40)).max(20).default([]),
  /** Box presets offered on the quote form from here; empty: the desk's own presets. */
  box_presets: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1).max(60),
        length_cm: z.number().gt(0).max(1000),
        width_cm: z.number().gt(0).max(1000),
        height_cm: z.number().gt(0).max(1000),
      }),
    )
    .max(30)
    .default([]),
});
export type WarehouseFields = z.output<typeof WarehouseFields>;

export const Warehouse = z.object({
  id: Id,
  name: z.string(),
  city: z.string(),
  postal_code: z.string().nullable(),
  address: z.string(),
  default_carriers: z.array(z.string()),
  box_presets: z.array(
    z.object({ name: z.string(), length_cm: z.number(), width_cm: z.number(), height_cm: z.number() }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Warehouse = z.output<typeof Warehouse>;

/** The same parcel from several warehouses: one result per origin, the cheapest and fastest named. */
export const OriginsResult = z.object({
  origins: z.array(
    z.object({
      warehouse_id: Id,
      warehouse: z.string(),
      /** Null when the run from this warehouse failed as a whole (every carrier's failure is in `result`). */
      result: DeskQuoteResult.nullable(),
      cheapest_kopecks: z.int().nullable(),
      fastest_days: z.int().nullable(),
    }),
  ),
  /** Warehouse ids; null when no origin got a rate. Ties: the first in the list. */
  cheapest_warehouse_id: Id.nullable(),
  fastest_warehouse_id: Id.nullable(),
});
export type OriginsResult = z.output<typeof OriginsResult>;

// ---------------------------------------------------------------------------------------------------
// Audit
// ---------------------------------------------------------------------------------------------------

/** Who did something: a desk user on the company server, this computer's desk, or the admin CLI. */
export const ActorKind = z.enum(['user', 'desk', 'cli']);
export type ActorKind = z.output<typeof ActorKind>;

export const AuditEntry = z.object({
  id: Id,
  at: Timestamp,
  actor_kind: ActorKind,
  /** The user's name; the OS user for the CLI; '' for this computer's desk. */
  actor: z.string(),
  /** The operation's name (`keys:create`). */
  action: z.string(),
  /** What it was done to: an account, key id, user, warehouse, carrier, setting names. */
  target: z.string(),
  /** The change, never a secret's value: a secret setting is named with `changed: true`. */
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntry = z.output<typeof AuditEntry>;

export const AuditFilter = z.strictObject({
  actor: z.string().max(64).optional(),
  /** An operation name or its area (`keys`). */
  action: z.string().max(64).optional(),
  /** ISO dates or timestamps, inclusive. */
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});
export type AuditFilter = z.output<typeof AuditFilter>;

// ---------------------------------------------------------------------------------------------------
// The desk's link to a company server (answered by the desk host, never forwarded)
// ---------------------------------------------------------------------------------------------------

export const CompanyUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an https:// address');

export const ServerCertificate = z.object({
  /** SHA-256 of the DER certificate, "AB:CD:…" (what `openssl x509 -fingerprint -sha256` prints). */
  fingerprint: z.string(),
  subject: z.string(),
  issuer: z.string(),
  valid_to: z.string(),
  /** True when the system's CAs already trust it (no pin is needed then, but one is kept anyway). */
  trusted: z.boolean(),
});
export type ServerCertificate = z.output<typeof ServerCertificate>;

export const CompanyStatus = z.object({
  mode: z.enum(['local', 'company']),
  /** Company mode only. */
  url: z.string().nullable(),
  user: z.string().nullable(),
  role: DeskRole.nullable(),
  device: z.string().nullable(),
  fingerprint: z.string().nullable(),
  /** `offline`: the server did not answer; actions wait and it retries by itself. */
  connection: z.enum(['local', 'online', 'connecting', 'offline', 'refused']),
  /** Why it is offline or refused, in English for the log; the UI words the state itself. */
  reason: z.string().nullable(),
});
export type CompanyStatus = z.output<typeof CompanyStatus>;

export const companyOperations = {
  'users:list': { input: NoInput, output: z.array(UserView) },
  'users:add': { input: z.strictObject({ name: UserName, role: DeskRole }), output: UserView },
  'users:set-role': { input: z.strictObject({ name: UserName, role: DeskRole }), output: UserView },
  /** A disabled user's devices are refused on their next call; enabling lets them back in. */
  'users:disable': { input: z.strictObject({ name: UserName }), output: UserView },
  'users:enable': { input: z.strictObject({ name: UserName }), output: UserView },
  /** Removes the user and their devices and codes; History and the audit log keep the name. */
  'users:remove': { input: z.strictObject({ name: UserName }), output: z.object({ name: z.string() }) },
  /** A one-time code the desk trades for its own device token; an unused earlier code is replaced. */
  'users:enrol': {
    input: z.strictObject({
      name: UserName,
      ttl_minutes: z.int().min(1).max(ENROLMENT_TTL_MINUTES.max).default(ENROLMENT_TTL_MINUTES.default),
    }),
    output: EnrolmentCode,
  },
  'devices:list': {
    input: z.strictObject({ user: UserName.optional() }).optional(),
    output: z.array(DeviceView),
  },
  'devices:revoke': {
    input: z.strictObject({ id: z.string().min(1).max(64) }),
    output: z.object({ id: z.string(), state: z.enum(['revoked', 'already']) }),
  },

  'warehouses:list': { input: NoInput, output: z.array(Warehouse) },
  'warehouses:create': { input: WarehouseFields, output: Warehouse },
  'warehouses:update': { input: WarehouseFields.extend({ id: Id }), output: Warehouse },
  /** Quotes already made from it keep its name. */
  'warehouses:remove': { input: z.strictObject({ id: Id }), output: z.object({ id: Id, name: z.string() }) },
  /**
   * «Из всех складов»: the same parcel from each warehouse (all of them when `warehouse_ids` is left out);
   * `shipment.from` is replaced by each warehouse's place. Progress arrives as quote:progress events with
   * the key `${quoteKey}:${warehouse_id}`. Each origin is one history row.
   */
  'quote:run-origins': {
    input: z.strictObject({
      quoteKey: QuoteKey,
      shipment: QuoteRequest,
      warehouse_ids: z.array(Id).min(1).max(50).optional(),
    }),
    output: OriginsResult,
  },

  'audit:search': {
    input: AuditFilter.extend({
      limit: z.int().min(1).max(1000).default(100),
      offset: z.int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    }).optional(),
    output: z.array(AuditEntry),
  },
  'audit:export': {
    input: AuditFilter.optional(),
    output: z.object({ filename: z.string(), mime: z.string(), base64: z.string() }),
  },

  'company:status': { input: NoInput, output: CompanyStatus },
  /** First contact: the server's certificate, to be compared with what the admin read out. */
  'company:probe': { input: z.strictObject({ url: CompanyUrl }), output: ServerCertificate },
  /**
   * Trades an enrolment code for this desk's device token. `fingerprint`: the certificate the clerk
   * confirmed (pinned); `ca_pem`: a company CA instead. The local data folder stays as it is.
   */
  'company:join': {
    input: z.strictObject({
      url: CompanyUrl,
      code: EnrolmentCodeText,
      device_name: z.string().trim().min(1).max(80),
      fingerprint: z.string().max(200).optional(),
      ca_pem: z.string().max(20_000).optional(),
    }),
    output: CompanyStatus,
  },
  /** Back to the local data folder; the device token is forgotten here (an admin may revoke it too). */
  'company:leave': { input: NoInput, output: CompanyStatus },
} as const;

export const companyEventSchemas = {
  'company:status': CompanyStatus,
} as const;
