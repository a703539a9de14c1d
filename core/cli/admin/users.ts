// users add | list | set-role | disable | enable | remove | enrol; devices list | revoke (#20)
import {
  ENROLMENT_TTL_MINUTES,
  type DeviceView,
  type EnrolmentCode,
  type UserView,
} from '../../contract/operations';
import { renderTable, UsageError } from '../admin-io';
import { numberOption, type Command, type Context } from './command';

function usersTable(rows: UserView[]): string {
  return renderTable(rows, [
    { header: 'NAME', cell: (u) => u.name },
    { header: 'ROLE', cell: (u) => u.role },
    { header: 'STATE', cell: (u) => (u.disabled ? 'disabled' : 'active') },
    { header: 'DEVICES', cell: (u) => String(u.devices) },
    { header: 'CREATED', cell: (u) => u.created_at },
  ]);
}

function devicesTable(rows: DeviceView[]): string {
  return renderTable(rows, [
    { header: 'ID', cell: (d) => d.id },
    { header: 'USER', cell: (d) => d.user },
    { header: 'NAME', cell: (d) => d.name },
    { header: 'ENROLLED', cell: (d) => d.created_at },
    { header: 'LAST SEEN', cell: (d) => d.last_seen_at ?? '-' },
    { header: 'STATE', cell: (d) => (d.revoked_at === null ? 'active' : `revoked ${d.revoked_at}`) },
  ]);
}

function role(ctx: Context, usage: string): string {
  const value = ctx.values.role;
  if (value === undefined) throw new UsageError(`--role clerk|admin is required. Usage: ${usage}`);
  return value;
}

/** What the admin reads out to the clerk, and where the clerk types it. */
function enrolmentText(e: EnrolmentCode, ttlMinutes: number): string {
  return [
    `Enrolment code for ${e.user}: ${e.code}`,
    `Valid once, until ${e.expires_at} (${ttlMinutes} min); it replaces any earlier unused code of ${e.user}.`,
    'On the desk: Settings → «Сервер компании», enter this server’s https:// address and the code,',
    'and compare the certificate fingerprint the desk shows with the server’s own.',
    '',
  ].join('\n');
}

const ADD_USAGE = 'users add NAME --role clerk|admin';
const SET_ROLE_USAGE = 'users set-role NAME --role clerk|admin';

export const userCommands: Record<string, Command> = {
  'users list': {
    usage: 'users list',
    args: [0, 0],
    options: [],
    run: async (ctx) => {
      const rows = await ctx.run('users:list');
      return {
        json: rows,
        text: rows.length === 0 ? 'No users yet. Add one: users add NAME --role clerk\n' : usersTable(rows),
      };
    },
  },
  'users add': {
    usage: ADD_USAGE,
    args: [1, 1],
    options: ['role'],
    run: async (ctx) => {
      const user = await ctx.run('users:add', { name: ctx.args[0]!, role: role(ctx, ADD_USAGE) });
      return {
        json: user,
        text: `Added user ${user.name} (${user.role}). Give them a code for their desk: users enrol ${user.name}\n`,
      };
    },
  },
  'users set-role': {
    usage: SET_ROLE_USAGE,
    args: [1, 1],
    options: ['role'],
    run: async (ctx) => {
      const user = await ctx.run('users:set-role', { name: ctx.args[0]!, role: role(ctx, SET_ROLE_USAGE) });
      return { json: user, text: `${user.name} is now ${user.role === 'admin' ? 'an admin' : 'a clerk'}.\n` };
    },
  },
  'users disable': {
    usage: 'users disable NAME',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const user = await ctx.run('users:disable', { name: ctx.args[0]! });
      return { json: user, text: `Disabled ${user.name}: their desks are refused from their next call.\n` };
    },
  },
  'users enable': {
    usage: 'users enable NAME',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const user = await ctx.run('users:enable', { name: ctx.args[0]! });
      return { json: user, text: `Enabled ${user.name}.\n` };
    },
  },
  'users remove': {
    usage: 'users remove NAME',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const removed = await ctx.run('users:remove', { name: ctx.args[0]! });
      return {
        json: removed,
        text: `Removed ${removed.name} with their devices and codes; History and the audit log keep the name.\n`,
      };
    },
  },
  'users enrol': {
    usage: 'users enrol NAME [--ttl MINUTES]',
    args: [1, 1],
    options: ['ttl'],
    run: async (ctx) => {
      const ttl = ctx.values.ttl === undefined ? undefined : numberOption('ttl', ctx.values.ttl);
      const code = await ctx.run('users:enrol', { name: ctx.args[0]!, ttl_minutes: ttl });
      return { json: code, text: enrolmentText(code, ttl ?? ENROLMENT_TTL_MINUTES.default) };
    },
  },
  'devices list': {
    usage: 'devices list [--user NAME]',
    args: [0, 0],
    options: ['user'],
    run: async (ctx) => {
      const rows = await ctx.run(
        'devices:list',
        ctx.values.user === undefined ? undefined : { user: ctx.values.user },
      );
      return { json: rows, text: rows.length === 0 ? 'No devices enrolled.\n' : devicesTable(rows) };
    },
  },
  'devices revoke': {
    usage: 'devices revoke ID',
    args: [1, 1],
    options: [],
    run: async (ctx) => {
      const r = await ctx.run('devices:revoke', { id: ctx.args[0]! });
      return {
        json: r,
        text:
          r.state === 'revoked'
            ? `Revoked device ${r.id}: its next call is refused.\n`
            : `Device ${r.id} was already revoked.\n`,
      };
    },
  },
};
