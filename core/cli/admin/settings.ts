// settings get | set | reset, notifications list
import type { SettingView } from '../../contract/operations';
import { SETTINGS, isSettingName } from '../../settings/schema';
import { INPUT_BOUNDS, readSecretInput, renderTable, UsageError } from '../admin-io';
import { numberOption, type Command } from './command';

function settingsTable(rows: SettingView[]): string {
  return renderTable(rows, [
    { header: 'NAME', cell: (s) => s.name },
    { header: 'VALUE', cell: (s) => (s.value === '' ? '""' : s.value) },
    { header: 'SET', cell: (s) => (s.is_set ? 'yes' : '-') },
    { header: 'DEFAULT', cell: (s) => (s.default === '' ? '""' : s.default) },
  ]);
}

const line = (row: SettingView): string => `${row.name} = ${row.value}${row.is_set ? '' : ' (default)'}\n`;

export const settingCommands: Record<string, Command> = {
  'settings get': {
    usage: 'settings get [NAME]',
    args: [0, 1],
    options: [],
    run: async (ctx) => {
      const name = ctx.args[0];
      if (name === undefined) {
        const rows = await ctx.run('settings:get');
        return { json: rows, text: settingsTable(rows) };
      }
      const row = await ctx.run('settings:get-one', { name });
      return { json: row, text: line(row) };
    },
  },
  'settings set': {
    usage: 'settings set NAME [VALUE]',
    args: [1, 2],
    options: [],
    run: async (ctx) => {
      const [name, argValue] = ctx.args as [string, string | undefined];
      const secret = isSettingName(name) && SETTINGS[name].secret;
      // argv is visible to other users (ps) and kept in shell history: secrets come from stdin only.
      if (secret && argValue !== undefined) {
        throw new UsageError(`${name} is a secret: give its value on stdin, not as an argument.`);
      }
      let value = argValue;
      if (value === undefined) {
        const text = await readSecretInput(
          ctx.io.stdin,
          ctx.io.stderr,
          `Value of ${name}: `,
          INPUT_BOUNDS.secret,
        );
        value = text.replace(/\r?\n$/, '').trim();
      }
      const row = await ctx.run('settings:set', { name, value });
      return { json: row, text: line(row) };
    },
  },
  'settings reset': {
    usage: 'settings reset NAME',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const row = await ctx.run('settings:reset', { name: ctx.args[0]! });
      return { json: row, text: `${row.name} = ${row.value} (default)\n` };
    },
  },
  'notifications list': {
    usage: 'notifications list [--limit N]',
    args: [0, 0],
    options: ['limit'],
    run: async (ctx) => {
      const limit = ctx.values.limit === undefined ? undefined : numberOption('limit', ctx.values.limit);
      const rows = await ctx.run('notifications:list', limit === undefined ? {} : { limit });
      const text =
        rows.length === 0
          ? 'No notifications.\n'
          : renderTable(rows, [
              { header: 'WHEN', cell: (n) => n.created_at },
              { header: 'ACCOUNT', cell: (n) => n.account },
              { header: 'KIND', cell: (n) => n.kind },
              { header: 'THRESHOLD', cell: (n) => String(n.threshold) },
              { header: 'BALANCE', cell: (n) => String(n.balance) },
            ]);
      return { json: rows, text };
    },
  },
};
