// Pure helpers of Settings → «Журнал действий» (#20): an operation's name in the UI language, the areas the
// filter offers (from the role table: the operations that change something are the admin's), the filter as
// the contract takes it, and a detail record as one line.
import { OPERATION_ROLES, type AuditEntry, type AuditFilter } from '../../../../core/desk/contract';
import { accountLabel } from '../../../../core/contract/account-name';
import { company } from '../../i18n/company';
import { formatDateTime, formatInteger, type Lang } from '../../lib/format';

/** The label of an operation (`keys:create` → «Создан API-ключ»), or its raw name when there is none. */
export function actionLabel(action: string, lang: Lang): string {
  return message(lang, `action.${action}`) ?? action;
}

/** `keys`, `accounts`, …: areas with an operation only an admin runs (those are what the log records). */
export const AUDIT_AREAS: readonly string[] = [
  ...new Set(
    Object.entries(OPERATION_ROLES)
      .filter(([name, role]) => role === 'admin' && !name.startsWith('audit:'))
      .map(([name]) => name.slice(0, name.indexOf(':'))),
  ),
];

export function areaLabel(area: string, lang: Lang): string {
  return message(lang, `area.${area}`) ?? area;
}

export interface AuditFilterForm {
  actor: string;
  area: string;
  /** `YYYY-MM-DD` from a date input, in this computer's time zone; '' for none. */
  from: string;
  to: string;
}

export const EMPTY_FILTER: AuditFilterForm = { actor: '', area: '', from: '', to: '' };

/** The form as the contract's filter: whole local days, `to` inclusive to its last millisecond. */
export function toAuditFilter(form: AuditFilterForm): AuditFilter {
  const out: AuditFilter = {};
  const actor = form.actor.trim();
  if (actor) out.actor = actor;
  if (form.area) out.action = form.area;
  const from = localDay(form.from, false);
  const to = localDay(form.to, true);
  if (from) out.from = from;
  if (to) out.to = to;
  return out;
}

function localDay(date: string, end: boolean): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const d = new Date(`${date}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function isFiltered(form: AuditFilterForm): boolean {
  return Boolean(form.actor.trim() || form.area || form.from || form.to);
}

function message(lang: Lang, key: string): string | undefined {
  const table = company[lang] as Record<string, unknown>;
  const m = Object.hasOwn(table, key) ? table[key] : undefined;
  return typeof m === 'string' ? m : undefined;
}

/**
 * `{ requests: 500, balance: 10500 }` → «запросов: 500; баланс: 10 500». Field names the catalogue knows are
 * worded, others stay as written; a secret is only ever "changed" or "cleared" (audit-log.ts).
 */
export function detailText(detail: AuditEntry['detail'], lang: Lang): string {
  return Object.entries(detail)
    .map(([k, v]) => `${message(lang, `detail.${k}`) ?? k}: ${detailValue(k, v, lang)}`)
    .join('; ');
}

function detailValue(key: string, v: AuditEntry['detail'][string], lang: Lang): string {
  if (v === null) return '—';
  if (typeof v === 'boolean') return message(lang, v ? 'audit.yes' : 'audit.no') ?? String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? formatInteger(v, lang) : String(v);
  if (v === 'changed' || v === 'cleared') return message(lang, `audit.${v}`) ?? v;
  if (key === 'account') return accountLabel(v, lang);
  if ((key === 'role' || key === 'was') && (v === 'clerk' || v === 'admin'))
    return message(lang, `role.${v}`) ?? v;
  if (key.endsWith('_at') && !Number.isNaN(Date.parse(v))) return formatDateTime(v, lang);
  return v;
}

/** What an entry was done to: an account by its on-screen name (`default` reads «Основной»). */
export function targetText(entry: AuditEntry, lang: Lang): string {
  return entry.action.startsWith('accounts:') ? accountLabel(entry.target, lang) : entry.target;
}
