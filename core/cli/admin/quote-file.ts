// quote-file IN --out OUT: a day's shipments quoted from a CSV or XLSX file (#21 item 6) for scripts, through
// the same operations as the desk's Bulk screen (bulk:parse with the suggested mapping, bulk:run, bulk:export).
// The rating service is started for this command only (no listener, no warm-up), so the data folder must not
// be served by a desk or `serve` at the same time (its lock says so); --database runs beside a company server.
// Progress goes to stderr; the exit code is 1 when any row was not quoted (a bad line, a failed quote, a row
// no carrier answered), each listed by its row number.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { describeBulkProblem, newQuoteKey } from '../../contract/operations';
import { invoke, type ServiceContext } from '../../operations';
import { UsageError } from '../admin-io';
import type { Command } from './command';

const USAGE = 'quote-file IN --out OUT [--account NAME] [--format csv|xlsx]';

function formatOf(out: string, flag: string | undefined): 'csv' | 'xlsx' {
  const f = flag ?? (extname(out).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv');
  if (f !== 'csv' && f !== 'xlsx') throw new UsageError(`--format must be csv or xlsx. Usage: ${USAGE}`);
  return f;
}

export const quoteFileCommand: Command = {
  usage: USAGE,
  args: [1, 1],
  options: ['out', 'account', 'format'],
  run: async (ctx) => {
    const input = ctx.args[0]!;
    const out = ctx.values.out;
    if (out === undefined) throw new UsageError(`--out is required. Usage: ${USAGE}`);
    const format = formatOf(out, ctx.values.format);
    let bytes: Buffer;
    try {
      bytes = readFileSync(input);
    } catch (error) {
      throw new UsageError(`cannot read ${input}: ${(error as Error).message}`);
    }
    const { createRatingService } = await import('../../service');
    const service = await createRatingService({
      dataDir: ctx.dataDir,
      ...(ctx.databaseUrl ? { database: { url: ctx.databaseUrl } } : {}),
      secrets: ctx.secrets(),
      listen: false,
      warmUp: false,
    });
    const err = ctx.io.stderr;
    try {
      const base = service.desk.context;
      const parsed = await invoke(
        'bulk:parse',
        { filename: basename(input), content: bytes.toString('base64') },
        base,
      );
      const lines = parsed.problems.map((p) => `line ${p.line}: ${describeBulkProblem(p)}`);
      if (parsed.more_problems > 0) lines.push(`… and ${parsed.more_problems} more problems`);
      for (const line of lines) err.write(`${line}\n`);
      let lastShown = 0;
      const runKey = newQuoteKey();
      const context: ServiceContext = {
        ...base,
        actor: { kind: 'cli', name: 'quote-file' },
        emit: (event, payload) => {
          if (event !== 'bulk:progress') return;
          const { done, total } = payload as { done: number; total: number };
          // A line every 5 % (and the last): a log of a thousand rows stays readable.
          if (done === total || done - lastShown >= Math.max(1, Math.ceil(total / 20))) {
            lastShown = done;
            err.write(`quoted ${done}/${total}\n`);
          }
        },
      };
      const result =
        parsed.shipments.length > 0
          ? await invoke(
              'bulk:run',
              {
                runKey,
                rows: parsed.shipments,
                ...(ctx.values.account !== undefined ? { account: ctx.values.account } : {}),
              },
              context,
            )
          : null;
      const rows = result?.rows ?? [];
      const file = await invoke('bulk:export', { format, rows, problems: parsed.problems }, base);
      writeFileSync(out, Buffer.from(file.base64, 'base64'));
      const unquoted = rows.filter((r) => r.error !== null || r.rates.length === 0);
      for (const r of unquoted) err.write(`line ${r.line}: ${r.error ?? 'no carrier gave a rate'}\n`);
      const seconds = (result?.elapsed_ms ?? 0) / 1000;
      const summary = {
        file: input,
        out,
        format,
        rows: parsed.total_rows,
        bad_rows: parsed.bad_rows,
        quoted: rows.length - unquoted.length,
        not_quoted: unquoted.map((r) => r.line),
        problems: parsed.problems,
        elapsed_s: Number(seconds.toFixed(2)),
        pace: result?.pace ?? null,
      };
      const rate = seconds > 0 ? ` (${(rows.length / seconds).toFixed(1)} rows/s)` : '';
      const text =
        `${summary.quoted} of ${parsed.total_rows} rows quoted in ${seconds.toFixed(1)} s${rate}; ` +
        `${parsed.bad_rows} bad, ${unquoted.length} without a rate. Written to ${out}.\n`;
      return { json: summary, text, exitCode: parsed.bad_rows + unquoted.length > 0 ? 1 : 0 };
    } finally {
      await service.close();
    }
  },
};

export const quoteFileCommands: Record<string, Command> = { 'quote-file': quoteFileCommand };
