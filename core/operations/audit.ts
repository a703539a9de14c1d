// Reading the audit log (#20): search with filters, and a CSV export in the UI's language like History's.
import { z } from 'zod';
import type { AuditEntry, AuditFilter } from '../contract/operations';
import type { AuditQuery, AuditRow, Store } from '../store/port';
import type { StoreContext } from './context';
import { csvText } from './csv';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { exportLanguage, localDateTime, stamp, type Language } from './export-basics';

/** An export reads at most this many entries, newest first. */
const EXPORT_MAX_ENTRIES = 100_000;
const EXPORT_PAGE = 1_000;

const StoredDetail = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

export function auditEntry(row: AuditRow): AuditEntry {
  let detail: AuditEntry['detail'] = {};
  try {
    const parsed = StoredDetail.safeParse(JSON.parse(row.detail_json));
    if (parsed.success) detail = parsed.data;
  } catch {
    // A damaged detail reads as empty: the entry itself (who, when, what) still shows.
  }
  return {
    id: row.id,
    at: row.at,
    actor_kind: row.actor_kind,
    actor: row.actor,
    action: row.action,
    target: row.target,
    detail,
  };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A bound as typed: a date (the whole day for `to`) or a timestamp; anything else is the caller's mistake. */
function bound(field: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (Number.isNaN(Date.parse(text)) || !(DATE_ONLY.test(text) || /^\d{4}-\d{2}-\d{2}T/.test(text))) {
    throw new OperationError('invalid', `${field}: must be a date (2025-03-14) or an ISO timestamp.`);
  }
  // Dates pass as typed (the store reads a bare `to` date as its whole day); timestamps in the stored form.
  return DATE_ONLY.test(text) ? text : new Date(text).toISOString();
}

function query(filter: AuditFilter | undefined, limit: number, offset: number): AuditQuery {
  const from = bound('from', filter?.from);
  const to = bound('to', filter?.to);
  const actor = filter?.actor?.trim();
  const action = filter?.action?.trim();
  return {
    ...(actor ? { actor } : {}),
    ...(action ? { action } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    limit,
    offset,
  };
}

const HEADERS: Record<Language, readonly string[]> = {
  ru: ['Дата', 'Кто', 'Откуда', 'Действие', 'Объект', 'Подробности'],
  en: ['Date', 'Who', 'Via', 'Action', 'Target', 'Detail'],
};

const VIA: Record<Language, Record<AuditEntry['actor_kind'], string>> = {
  ru: { user: 'сотрудник', desk: 'этот компьютер', cli: 'командная строка' },
  en: { user: 'desk user', desk: 'this computer', cli: 'command line' },
};

/** `rps: 5; burst: 10`: one cell a person reads, in the order the change was written. */
export function detailText(detail: AuditEntry['detail']): string {
  return Object.entries(detail)
    .map(([k, v]) => `${k}: ${v === null ? '—' : String(v)}`)
    .join('; ');
}

async function allMatching(store: Store, filter: AuditFilter | undefined): Promise<AuditRow[]> {
  const all: AuditRow[] = [];
  while (all.length < EXPORT_MAX_ENTRIES) {
    const page = await store.audit.search(query(filter, EXPORT_PAGE, all.length));
    all.push(...page);
    if (page.length < EXPORT_PAGE) break;
  }
  return all;
}

/** The file as Russian Excel opens it: BOM, ';' (history-export.ts says why); the one CSV writer. */
export async function auditCsv(ctx: StoreContext, filter: AuditFilter | undefined): Promise<string> {
  const lang = await exportLanguage(ctx);
  const records = (await allMatching(ctx.store, filter))
    .map(auditEntry)
    .map((e) => [
      localDateTime(e.at),
      e.actor,
      VIA[lang][e.actor_kind],
      e.action,
      e.target,
      detailText(e.detail),
    ]);
  return csvText([HEADERS[lang], ...records], { separator: ';', bom: true });
}

export const auditOperations = {
  'audit:search': {
    needs: 'store',
    run: async ({ store }, input) => {
      const rows = await store.audit.search(query(input, input?.limit ?? 100, input?.offset ?? 0));
      return rows.map(auditEntry);
    },
  },

  'audit:export': {
    needs: 'store',
    run: async (ctx, input) => {
      const csv = await auditCsv(ctx, input);
      return {
        filename: `ratedesk-audit-${stamp(ctx.clock.now())}.csv`,
        mime: 'text/csv;charset=utf-8',
        base64: Buffer.from(csv, 'utf8').toString('base64'),
      };
    },
  },
} satisfies AreaOperations<'audit:search' | 'audit:export'>;
