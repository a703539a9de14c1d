// Bulk quoting (#21 item 6): bulk:parse reads a file of shipments through a mapping, bulk:run quotes its rows
// at an account's pace (core/bulk/run.ts) as desk quotes — each stored in history, none charged to an API
// balance (docs/api.md "Desk and bulk quotes") —, bulk:cancel stops a run, bulk:export writes the results.
import { setMaxListeners } from 'node:events';
import { mapRows, suggestMapping } from '../bulk/map';
import { readBulkFile } from '../bulk/parse';
import { runBulk, type BulkPace } from '../bulk/run';
import { BULK_WIDTHS, bulkCells, bulkHeader, csvCell } from '../bulk/export';
import { BULK_PREVIEW_ROWS, type BulkParseResult, type OperationParsedInput } from '../contract/operations';
import { effectiveLimits } from '../contract/limits';
import type { Location } from '../contract/v1';
import type { ServiceContext, StoreContext } from './context';
import { csvText } from './csv';
import type { AreaOperations } from './define';
import { OperationError } from './errors';
import { exportLanguage, stamp } from './export-basics';
import { SANDBOX_MARK } from './history-export';
import { fromWarehouse, runDeskQuote } from './quotes';
import { requireWarehouse } from './warehouses';
import { writeXlsx } from './xlsx';

/** Runs in progress, by their caller and runKey: what bulk:cancel aborts. */
const RUNS = new Map<string, AbortController>();
const runId = (ctx: StoreContext, runKey: string): string =>
  `${ctx.actor?.deviceId ?? ctx.actor?.name ?? ''}\u0000${runKey}`;

export async function parseBulk(
  content: Buffer,
  mapping: OperationParsedInput<'bulk:parse'>['mapping'],
  origin?: Location,
): Promise<BulkParseResult> {
  const file = await readBulkFile(content);
  const columns = file.header?.fields ?? [];
  const used = mapping ?? suggestMapping(columns);
  const preview = file.rows.slice(0, BULK_PREVIEW_ROWS).map((r) => ({ line: r.line, fields: r.fields }));
  if (file.problem && file.problem.kind !== 'too_many_rows') {
    return {
      format: file.format,
      columns,
      preview,
      mapping: used,
      total_rows: file.rows.length,
      shipments: [],
      problems: [file.problem],
      more_problems: 0,
      bad_rows: 0,
    };
  }
  const mapped = mapRows(file.rows, used, origin, file.header?.line ?? 1);
  return {
    format: file.format,
    columns,
    preview,
    mapping: used,
    total_rows: file.rows.length,
    ...mapped,
    // Past the row limit nothing is quoted: the rows read are shown, the limit said once.
    ...(file.problem ? { shipments: [], problems: [file.problem, ...mapped.problems].slice(0, 200) } : {}),
  };
}

async function paceOf(ctx: ServiceContext, account: string | undefined): Promise<BulkPace> {
  const inFlight = Number(ctx.service.settings.get('rating.max_in_flight_per_account'));
  if (account === undefined) return { account: null, inFlight };
  const row = await ctx.store.accounts.byName(account);
  if (!row) throw new OperationError('not_found', `no account named ${JSON.stringify(account)}`);
  const { rps, burst } = effectiveLimits(row);
  return { account: { name: row.name, bucket: String(row.id), limits: { rps, burst } }, inFlight };
}

export const bulkOperations = {
  'bulk:parse': {
    needs: 'store',
    run: (_ctx, { content, mapping, origin }) => parseBulk(Buffer.from(content, 'base64'), mapping, origin),
  },
  'bulk:run': {
    needs: 'service',
    run: async (ctx, { runKey, rows, warehouse_id, account }) => {
      const warehouse = warehouse_id === undefined ? null : await requireWarehouse(ctx.store, warehouse_id);
      const pace = await paceOf(ctx, account);
      const id = runId(ctx, runKey);
      if (RUNS.has(id)) throw new OperationError('conflict', `run ${runKey} is already running`);
      const controller = new AbortController();
      // Every row waiting for a token listens for the cancel.
      setMaxListeners(pace.inFlight + 10, controller.signal);
      RUNS.set(id, controller);
      // A row's own carrier-by-carrier progress is not streamed: the run's progress is a row at a time.
      const quiet: ServiceContext = { ...ctx, emit: () => {} };
      try {
        return await runBulk({
          runKey,
          rows,
          pace,
          store: ctx.store,
          monotonicMs: () => performance.now(),
          signal: controller.signal,
          quote: async (shipment) => {
            const asked = warehouse ? fromWarehouse(shipment, warehouse) : shipment;
            const r = await runDeskQuote(quiet, runKey, asked, { warehouse: warehouse?.name ?? null });
            return { quote_id: r.quote_id, sandbox: r.sandbox, rates: r.rates, failures: r.failures };
          },
          onRow: (row, done, total) => ctx.emit('bulk:progress', { runKey, done, total, row }),
        });
      } finally {
        RUNS.delete(id);
      }
    },
  },
  'bulk:cancel': {
    needs: 'service',
    run: (ctx, { runKey }) => {
      const controller = RUNS.get(runId(ctx, runKey));
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
  },
  'bulk:export': {
    needs: 'store',
    run: async (ctx, { format, rows, problems }) => {
      const now = ctx.clock.now();
      const lang = await exportLanguage(ctx);
      const header = bulkHeader(lang);
      const cells = bulkCells(rows, problems, lang, SANDBOX_MARK[lang]);
      const base = `ratedesk-bulk-${stamp(now)}`;
      if (format === 'csv') {
        const text = csvText([header, ...cells.map((r) => r.map((c) => csvCell(c, lang)))], {
          separator: ';',
          bom: true,
        });
        return {
          filename: `${base}.csv`,
          mime: 'text/csv;charset=utf-8',
          base64: Buffer.from(text).toString('base64'),
        };
      }
      const bytes = writeXlsx(
        { name: lang === 'ru' ? 'Пакетный расчёт' : 'Bulk quote', header, rows: cells, widths: BULK_WIDTHS },
        now,
      );
      return {
        filename: `${base}.xlsx`,
        mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        base64: bytes.toString('base64'),
      };
    },
  },
} satisfies AreaOperations<'bulk:parse' | 'bulk:run' | 'bulk:cancel' | 'bulk:export'>;
