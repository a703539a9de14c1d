// The audit log in the data file (#20): append-only (triggers of migration 0008), newest first.
import { auditBounds } from '../audit-query';
import type { AuditQuery, AuditRow, AuditStore, NewAudit } from '../port';
import type { Db } from './open';
import type { SqliteRunner } from './runner';

type Statement = ReturnType<Db['prepare']>;

export function auditRepo(db: Db) {
  const insert = db.prepare<NewAudit>(`
    INSERT INTO audit (at, actor_kind, actor, action, target, detail_json)
    VALUES (@at, @actor_kind, @actor, @action, @target, @detail_json)`);
  // Built per query with only the filters given, so SQLite can pick the index of the one that narrows.
  const searches = new Map<string, Statement>();
  const statement = (where: string[]): Statement => {
    const sql = `SELECT id, at, actor_kind, actor, action, target, detail_json FROM audit
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY at DESC, id DESC LIMIT @limit OFFSET @offset`;
    let s = searches.get(sql);
    if (!s) searches.set(sql, (s = db.prepare(sql)));
    return s;
  };

  return {
    append: (entry: NewAudit): void => void insert.run(entry),
    search(query: AuditQuery): AuditRow[] {
      const b = auditBounds(query);
      const where: string[] = [];
      const params: Record<string, string | number> = { limit: query.limit, offset: query.offset };
      const add = (condition: string, values: Record<string, string>): void => {
        where.push(condition);
        Object.assign(params, values);
      };
      if (b.actor !== undefined) add('actor = @actor', { actor: b.actor });
      if (b.action !== undefined) add('action = @action', { action: b.action });
      if (b.actionFrom !== undefined && b.actionBefore !== undefined)
        add('action >= @action_from AND action < @action_before', {
          action_from: b.actionFrom,
          action_before: b.actionBefore,
        });
      if (b.from !== undefined) add('at >= @from', { from: b.from });
      if (b.before !== undefined) add('at < @before', { before: b.before });
      return statement(where).all(params) as AuditRow[];
    },
  };
}

export type AuditRepo = ReturnType<typeof auditRepo>;

export function sqliteAudit(r: AuditRepo, run: SqliteRunner): AuditStore {
  return {
    append: (entry) => run.write(null, () => r.append(entry)),
    search: (query) => run.read(() => r.search(query)),
  };
}
