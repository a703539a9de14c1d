// The audit log's one declaration (#20): which operations are admin changes and how each is written down —
// who (the context's actor), the operation's name, what it was done to and the change. A detail never holds a
// secret's value: a carrier secret or a secret setting is written as "changed", a key by its id and name, an
// enrolment code not at all. invokeOperation and runStoreOperation (define.ts) both go through withAudit, so
// every host (the desk, a company desk through the gateway, the admin CLI) writes the same entries.
import type {
  AuditEntry,
  OperationName,
  OperationOutput,
  OperationParsedInput,
  PricingRuleView,
  Warehouse,
} from '../contract/operations';
import type { Actor, StoreContext } from './context';
import { ruleLabel } from './pricing';
import { warehouseView } from './warehouse-view';

export type AuditDetail = AuditEntry['detail'];
export interface AuditNote {
  target: string;
  detail: AuditDetail;
}

type Describe<N extends OperationName> = (
  input: OperationParsedInput<N>,
  output: OperationOutput<N>,
) => AuditNote;
/** For a change worth comparing with what was there before: reads it first, then describes the result. */
interface DescribeWithPrior<N extends OperationName> {
  prepare(
    ctx: StoreContext,
    input: OperationParsedInput<N>,
  ): Promise<(output: OperationOutput<N>) => AuditNote>;
}
export type AuditDescriber<N extends OperationName> = Describe<N> | DescribeWithPrior<N>;

/** Only the fields given: an operation's partial input is exactly what it changed. */
function given(fields: Record<string, string | number | boolean | null | undefined>): AuditDetail {
  const out: AuditDetail = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out;
}

/** A secret is named, never shown: set or cleared. */
const secretChange = (value: string | undefined): 'changed' | 'cleared' | undefined =>
  value === undefined ? undefined : value.trim() === '' ? 'cleared' : 'changed';

/** A warehouse's fields as one-line texts, compared before and after an update. */
function warehouseFields(w: Warehouse): Record<string, string | null> {
  return {
    name: w.name,
    city: w.city,
    postal_code: w.postal_code,
    address: w.address,
    default_carriers: w.default_carriers.join(','),
    box_presets: w.box_presets.map((b) => `${b.name} ${b.length_cm}×${b.width_cm}×${b.height_cm}`).join('; '),
  };
}

/** A resale rule's terms as set (or as they were, when removed); `replaced` when a rule was there before. */
function pricingTerms(o: PricingRuleView & { replaced?: boolean }): AuditDetail {
  return given({
    markup_percent: o.markup_percent,
    markup_kopecks: o.markup_kopecks,
    packaging_kopecks: o.packaging_kopecks,
    min_kopecks: o.min_kopecks,
    max_kopecks: o.max_kopecks,
    rounding: o.rounding,
    replaced: o.replaced,
  });
}

/**
 * Every admin change and how it is written down. An admin operation (roles.ts) missing here must be in
 * AUDIT_READ_ONLY: test/unit/core/operations/audit-log.test.ts holds the two lists to OPERATION_ROLES.
 */
export const AUDIT_DESCRIBERS = {
  'accounts:create': (i) => ({ target: i.name, detail: { balance: i.balance } }),
  'accounts:topup': (i, o) => ({ target: o.name, detail: { requests: i.requests, balance: o.balance } }),
  'accounts:set-limits': (i, o) => ({ target: o.name, detail: { rps: i.rps, burst: i.burst } }),
  'accounts:clear-limits': (_i, o) => ({ target: o.name, detail: {} }),
  'accounts:set-threshold': (i, o) => ({ target: o.name, detail: { threshold: i.threshold } }),

  // The key's id, name and account: never the secret the output carries.
  'keys:create': (_i, o) => ({ target: o.id, detail: { name: o.name, account: o.account } }),
  'keys:revoke': (_i, o) => ({
    target: o.id,
    detail: { name: o.name, account: o.account, already_revoked: o.already_revoked },
  }),
  'keys:import': (i, o): AuditNote =>
    'document' in i
      ? {
          target: 'export file',
          detail: { imported: o.imported, skipped: o.skipped, accounts_created: o.accounts_created.length },
        }
      : { target: o.key?.id ?? '', detail: { name: i.name, account: i.account, imported: o.imported } },

  'carriers:update': (i) => ({
    target: i.code,
    detail: given({
      enabled: i.enabled,
      endpoint: i.endpoint,
      base_url: i.base_url,
      timeout_ms: i.timeout_ms,
      client_id: i.client_id,
      client_secret: secretChange(i.client_secret),
    }),
  }),

  'settings:set': (_i, o): AuditNote => ({
    target: o.name,
    detail: o.secret ? { changed: true } : { value: o.value },
  }),
  'settings:reset': (_i, o): AuditNote => ({
    target: o.name,
    detail: o.secret ? { reset: true } : { reset: true, value: o.value },
  }),
  'listener:update': (i) => ({
    target: 'listener',
    detail: given({ enabled: i.enabled, host: i.host, port: i.port }),
  }),

  'ratecards:import': (_i, o) => ({
    target: o.code,
    detail: { name: o.name, rows: o.rows, replaced: o.replaced },
  }),
  'ratecards:remove': (_i, o) => ({ target: o.code, detail: { name: o.name } }),

  'users:add': (_i, o) => ({ target: o.name, detail: { role: o.role } }),
  'users:set-role': {
    prepare: async ({ store }, i) => {
      const before = (await store.users.byName(i.name))?.role ?? null;
      return (o) => ({ target: o.name, detail: { role: o.role, was: before } });
    },
  },
  'users:disable': (_i, o) => ({ target: o.name, detail: {} }),
  'users:enable': (_i, o) => ({ target: o.name, detail: {} }),
  'users:remove': (_i, o) => ({ target: o.name, detail: {} }),
  // The code is shown once to the admin who asked; the log says only that one was issued, until when.
  'users:enrol': (i, o) => ({
    target: o.user,
    detail: { expires_at: o.expires_at, ttl_minutes: i.ttl_minutes },
  }),
  'devices:revoke': {
    prepare: async ({ store }, i) => {
      const device = (await store.users.devices()).find((d) => d.id === i.id);
      return (o) => ({
        target: o.id,
        detail: { user: device?.user_name ?? null, device: device?.name ?? null, state: o.state },
      });
    },
  },

  'warehouses:create': (_i, o) => ({ target: o.name, detail: { ...warehouseFields(o) } }),
  'warehouses:update': {
    prepare: async ({ store }, i) => {
      const row = await store.warehouses.byId(i.id);
      const before = row ? warehouseFields(warehouseView(row)) : null;
      return (o) => {
        const after = warehouseFields(o);
        const detail: AuditDetail = { id: o.id };
        for (const [key, value] of Object.entries(after)) if (before?.[key] !== value) detail[key] = value;
        if (before && before.name !== after.name) detail.was = before.name ?? null;
        return { target: o.name, detail };
      };
    },
  },
  'warehouses:remove': (_i, o) => ({ target: o.name, detail: { id: o.id } }),

  'calendar:import': (i, o) => ({
    target: String(o.year),
    detail: {
      source: i.source,
      days_off: o.weekday_days_off.length,
      working_days: o.weekend_working_days.length,
      replaced: o.replaced,
    },
  }),
  'pricing:set': (_i, o) => ({ target: ruleLabel(o.account, o.carrier), detail: pricingTerms(o) }),
  'pricing:remove': (_i, o) => ({ target: ruleLabel(o.account, o.carrier), detail: pricingTerms(o) }),
} satisfies { [N in OperationName]?: AuditDescriber<N> };

/** Admin operations that change nothing (reads, files, live checks): nothing to write down. */
export const AUDIT_READ_ONLY = [
  'settings:get-one',
  'carriers:check',
  'keys:list',
  'keys:export',
  'ratecards:check',
  'ratecards:template',
  'users:list',
  'devices:list',
  'audit:search',
  'audit:export',
] as const satisfies readonly OperationName[];

export type AuditedOperation = keyof typeof AUDIT_DESCRIBERS;

export function isAudited(name: string): name is AuditedOperation {
  return Object.hasOwn(AUDIT_DESCRIBERS, name);
}

/** Who the log names: the context's actor, or this computer's desk when there is none. */
export function auditActor(ctx: StoreContext): Actor {
  return ctx.actor ?? { kind: 'desk', name: '' };
}

/**
 * Runs an operation and, when it is an admin change that succeeded, appends its audit entry. A failed
 * operation changed nothing and writes nothing. A failed append fails the call: the change is made, but an
 * admin change must never pass unrecorded without the caller hearing of it.
 */
export async function withAudit<N extends OperationName>(
  name: N,
  ctx: StoreContext,
  input: OperationParsedInput<N>,
  run: () => Promise<OperationOutput<N>> | OperationOutput<N>,
): Promise<OperationOutput<N>> {
  if (!isAudited(name)) return run();
  // The table's entry for `name` takes `name`'s input and output; TypeScript cannot follow the pairing.
  const describer = AUDIT_DESCRIBERS[name] as unknown as AuditDescriber<N>;
  const describe =
    typeof describer === 'function'
      ? (output: OperationOutput<N>) => describer(input, output)
      : await describer.prepare(ctx, input);
  const output = await run();
  const note = describe(output);
  const actor = auditActor(ctx);
  await ctx.store.audit.append({
    at: ctx.clock.now().toISOString(),
    actor_kind: actor.kind,
    actor: actor.name,
    action: name,
    target: note.target,
    detail_json: JSON.stringify(note.detail),
  });
  return output;
}
