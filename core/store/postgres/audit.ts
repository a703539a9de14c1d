// The audit log on the company database (#20): append-only (a trigger of migration 0003), newest first. The
// time and action columns compare byte-wise (COLLATE "C"), as the filters' bounds assume (audit-query.ts).
import { auditBounds } from '../audit-query';
import type { AuditRow, AuditStore } from '../port';
import type { PgDb } from './pool';

export function pgAudit(db: PgDb): AuditStore {
  return {
    append: async (e) => {
      await db.rows(
        `INSERT INTO audit (at, actor_kind, actor, action, target, detail_json) VALUES ($1, $2, $3, $4, $5, $6)`,
        [e.at, e.actor_kind, e.actor, e.action, e.target, e.detail_json],
        'audit_append',
      );
    },
    search(query) {
      const b = auditBounds(query);
      const where: string[] = [];
      const values: unknown[] = [];
      // Only the filters given, so the planner can pick the index of the one that narrows.
      const bind = (value: string): string => `$${values.push(value)}`;
      if (b.actor !== undefined) where.push(`actor = ${bind(b.actor)}`);
      if (b.action !== undefined) where.push(`action = ${bind(b.action)}`);
      if (b.actionFrom !== undefined && b.actionBefore !== undefined)
        where.push(`action >= ${bind(b.actionFrom)} AND action < ${bind(b.actionBefore)}`);
      if (b.from !== undefined) where.push(`at >= ${bind(b.from)}`);
      if (b.before !== undefined) where.push(`at < ${bind(b.before)}`);
      values.push(query.limit, query.offset);
      return db.rows<AuditRow>(
        `SELECT id, at, actor_kind, actor, action, target, detail_json FROM audit
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY at DESC, id DESC LIMIT $${values.length - 1} OFFSET $${values.length}`,
        values,
      );
    },
  };
}
