// audit [--actor A] [--action A] [--from D] [--to D] [--limit N] [--csv] (#20): who changed what.
import type { AuditEntry } from '../../contract/operations';
import { detailText } from '../../operations/audit';
import { renderTable, UsageError } from '../admin-io';
import { numberOption, type Command } from './command';

const USAGE = 'audit [--actor NAME] [--action OPERATION|AREA] [--from DATE] [--to DATE] [--limit N] [--csv]';

/** `anna`, `cli:root`, `desk`: a desk user by name, the other two by what they are. */
function who(e: AuditEntry): string {
  if (e.actor_kind === 'user') return e.actor;
  return e.actor === '' ? e.actor_kind : `${e.actor_kind}:${e.actor}`;
}

function auditTable(rows: AuditEntry[]): string {
  return renderTable(rows, [
    { header: 'AT', cell: (e) => e.at },
    { header: 'WHO', cell: who },
    { header: 'ACTION', cell: (e) => e.action },
    { header: 'TARGET', cell: (e) => e.target },
    { header: 'DETAIL', cell: (e) => detailText(e.detail) },
  ]);
}

export const auditCommands: Record<string, Command> = {
  audit: {
    usage: USAGE,
    args: [0, 0],
    options: ['actor', 'action', 'from', 'to', 'limit', 'csv'],
    run: async (ctx) => {
      const v = ctx.values;
      const filter = {
        ...(v.actor !== undefined ? { actor: v.actor } : {}),
        ...(v.action !== undefined ? { action: v.action } : {}),
        ...(v.from !== undefined ? { from: v.from } : {}),
        ...(v.to !== undefined ? { to: v.to } : {}),
      };
      if (v.csv) {
        // The file the desk's «Экспорт» saves, on stdout: redirect it to a .csv for Excel.
        if (v.limit !== undefined) throw new UsageError(`--limit does not apply with --csv. Usage: ${USAGE}`);
        const file = await ctx.run('audit:export', filter);
        return { json: file, text: Buffer.from(file.base64, 'base64').toString('utf8') };
      }
      const limit = v.limit === undefined ? undefined : numberOption('limit', v.limit);
      const rows = await ctx.run('audit:search', { ...filter, limit });
      return { json: rows, text: rows.length === 0 ? 'No audit entries match.\n' : auditTable(rows) };
    },
  },
};
