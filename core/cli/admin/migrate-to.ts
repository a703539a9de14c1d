// migrate-to [URL]: the desk's data folder (--data-dir, or the default one) copied into a new, empty company
// database (URL, else --database / RATEDESK_DATABASE_URL), checked by its figures on both sides
// (core/store/migrate-to.ts; docs/operations.md, "Moving a desk into the company database").
import { IDEMPOTENCY_RETENTION_MS } from '../../api/idempotency';
import { DESK_TABLES, DeskCopyMismatchError, TargetNotEmptyError } from '../../store/desk-copy';
import {
  DeskInUseError,
  DeskUnsoundError,
  migrateDeskTo,
  type MigrateToReport,
  type SkippedSetting,
} from '../../store/migrate-to';
import { isDatabaseUrl } from '../../store/company';
import { InputError, renderTable, UsageError } from '../admin-io';
import type { Command } from './command';

const USAGE = 'migrate-to [postgres://…] [--data-dir DIR]';

/** Accounts listed one by one in the text answer; the rest are summed (the JSON has them all). */
const LISTED_ACCOUNTS = 20;

export const migrateCommands: Record<string, Command> = {
  'migrate-to': {
    usage: USAGE,
    args: [0, 1],
    options: [],
    readsDeskWritesDatabase: true,
    run: async (ctx) => {
      const given = ctx.args[0];
      if (given !== undefined && !isDatabaseUrl(given))
        throw new UsageError(`the target must be a postgres:// URL, got "${given}". Usage: ${USAGE}`);
      if (given !== undefined && ctx.values.database !== undefined)
        throw new UsageError(
          `give the company database once: as the argument or as --database. Usage: ${USAGE}`,
        );
      const url = given ?? ctx.databaseUrl;
      if (url === undefined)
        throw new UsageError(
          `no company database given: migrate-to postgres://… (or --database, or RATEDESK_DATABASE_URL). Usage: ${USAGE}`,
        );
      let report: MigrateToReport;
      try {
        report = await migrateDeskTo({
          dataDir: ctx.dataDir,
          url,
          idempotencyRetentionMs: IDEMPOTENCY_RETENTION_MS,
          // The server key given (--server-key-file / RATEDESK_SERVER_KEY_FILE / RATEDESK_SERVER_KEY): carrier
          // secrets are sealed with it and moved. Without one they stay on the desk (listed).
          secrets: ctx.secrets(),
          ...(ctx.io.clock ? { clock: ctx.io.clock } : {}),
        });
      } catch (error) {
        // Refusals a user acts on: one line, exit 1 (the rest is reported as an unexpected error, also exit 1).
        if (
          error instanceof TargetNotEmptyError ||
          error instanceof DeskCopyMismatchError ||
          error instanceof DeskInUseError ||
          error instanceof DeskUnsoundError
        )
          throw new InputError(error.message);
        throw error;
      }
      return { json: report, text: reportText(report) };
    },
  },
};

function reportText(r: MigrateToReport): string {
  const out: string[] = [];
  out.push(
    `Copied the desk ${r.source} into ${r.target} in ${(r.elapsedMs / 1000).toFixed(1)} s ` +
      '(one transaction; the desk was read only and is unchanged).',
    '',
  );
  out.push(
    renderTable(DESK_TABLES, [
      { header: 'TABLE', cell: (t) => t },
      { header: 'DESK', cell: (t) => String(r.desk.rows[t]) },
      { header: 'COMPANY', cell: (t) => String(r.company.rows[t]) },
    ]).trimEnd(),
    '',
  );
  const companyById = new Map(r.company.accounts.map((a) => [a.id, a]));
  const total = r.company.accounts.reduce((sum, a) => sum + a.balance, 0);
  out.push(
    `Balances: ${count(r.company.accounts.length, 'account')}, ${total} requests in all; every balance equals its ` +
      'ledger sum, and both equal the desk’s.',
  );
  out.push(
    renderTable(r.desk.accounts.slice(0, LISTED_ACCOUNTS), [
      { header: 'ACCOUNT', cell: (a) => `${a.name} (id ${a.id})` },
      { header: 'DESK BALANCE', cell: (a) => String(a.balance) },
      { header: 'COMPANY BALANCE', cell: (a) => String(companyById.get(a.id)?.balance ?? '-') },
      { header: 'COMPANY LEDGER SUM', cell: (a) => String(companyById.get(a.id)?.ledger_sum ?? '-') },
    ]).trimEnd(),
  );
  if (r.desk.accounts.length > LISTED_ACCOUNTS)
    out.push(`… and ${r.desk.accounts.length - LISTED_ACCOUNTS} more (--json lists them all)`);
  out.push('');

  const left = r.leftBehind;
  out.push(
    `Left on the desk on purpose: ${count(left.idempotency_expired, 'idempotency record')} past retention, ` +
      `${count(left.location_cache_expired, 'expired location-cache entry', 'expired location-cache entries')}, ` +
      `${count(left.rate_cards_hidden, 'unpublished or retired rate card')} ` +
      `(${count(left.rate_card_rows_hidden, 'row')}).`,
  );
  out.push(
    `Settings: ${r.settings.moved} moved` +
      (r.settings.sealed > 0 ? ` (${count(r.settings.sealed, 'secret')} sealed with the server key)` : '') +
      (r.settings.skipped.length > 0 ? `; not moved:` : '.'),
  );
  for (const s of r.settings.skipped) out.push(`  ${s.name}: ${skippedWhy(s)}`);
  out.push(
    '',
    'Next: start the serve instances on the company database. Do not serve this desk folder again: its ' +
      'balances now live in the company database, and spending them on both would count them twice.',
    '',
  );
  return out.join('\n');
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function skippedWhy(s: SkippedSetting): string {
  const again = `set it on the company server: npm run admin -- --database URL settings set ${s.name} (value on stdin)`;
  switch (s.reason) {
    case 'unknown':
      return 'not a setting of this RateDesk';
    case 'sealed':
      return `sealed by the desktop app's keychain, which cannot be opened here; ${again}`;
    case 'no_server_key':
      return `a secret, and a company database keeps secrets sealed with the server key, none given; ${again}`;
  }
}
