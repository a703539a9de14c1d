// Settings as an admin sees them (every known setting with its effective value, secrets masked), the
// app's own facts, and the /v1 listener's switch, port and bind address.
import type { ListenerStatus, SettingView } from '../contract/operations';
import { isLoopback } from '../settings/loopback';
import {
  SETTINGS,
  isCompanyLinkSetting,
  isSettingName,
  maskSecret,
  parseSetting,
  type SettingName,
} from '../settings/schema';
import type { Store } from '../store/port';
import { inService, type ServiceContext, type WallClock } from './context';
import { storeCall, type AreaOperations } from './define';
import { OperationError } from './errors';

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

function knownName(name: string): SettingName {
  if (!isSettingName(name)) {
    throw new OperationError(
      'not_found',
      `Unknown setting ${JSON.stringify(name)}. Valid names: ${SETTING_NAMES.join(', ')}.`,
    );
  }
  return name;
}

function view(name: SettingName, stored: string | undefined): SettingView {
  const def = SETTINGS[name];
  const value = stored ?? def.default;
  return {
    name,
    value: def.secret ? maskSecret(value) : value,
    default: def.default,
    is_set: stored !== undefined,
    secret: def.secret,
    doc: def.doc,
  };
}

/**
 * Stores the canonical form of a valid value. A value equal to the default removes the row instead: the
 * table holds only deviations (settings/schema.ts), so a later change of default reaches every untouched setting.
 */
export async function writeSetting(
  store: Store,
  clock: WallClock,
  rawName: string,
  rawValue: string,
): Promise<SettingView> {
  const [write] = await writeSettings(store, clock, [{ name: rawName, value: rawValue }]);
  return view(write!.name, await store.settings.get(write!.name));
}

/** Checks every value first, then writes them all in one write: all or nothing. */
export async function writeSettings(
  store: Store,
  clock: WallClock,
  values: ReadonlyArray<{ name: string; value: string }>,
): Promise<Array<{ name: SettingName; value: string | null }>> {
  const writes = values.map(({ name: rawName, value }) => {
    const name = knownName(rawName);
    const r = parseSetting(name, value);
    if (!r.ok) throw new OperationError('invalid', r.error);
    return { name, value: r.value === SETTINGS[name].default ? null : r.value };
  });
  await store.settings.write(writes, clock.now().toISOString());
  return writes;
}

const LISTENER_SETTINGS = [
  'listener.enabled',
  'listener.host',
  'listener.port',
] as const satisfies readonly SettingName[];

/** enabled/host/port are the settings (port 0: any free port); running/url are what is bound now. */
function listenerStatus(ctx: ServiceContext): ListenerStatus {
  const s = ctx.service.settings;
  const listener = ctx.service.listener();
  return {
    enabled: s.get('listener.enabled') === 'on',
    host: s.get('listener.host'),
    port: Number(s.get('listener.port')),
    running: listener !== null,
    url: listener?.url ?? null,
  };
}

async function writeListener(
  ctx: ServiceContext,
  values: Partial<Record<(typeof LISTENER_SETTINGS)[number], string>>,
): Promise<void> {
  const writes = LISTENER_SETTINGS.flatMap((name) => {
    const value = values[name];
    return value === undefined ? [] : [{ name, value }];
  });
  await writeSettings(ctx.store, ctx.clock, writes);
}

function listenError(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use by another program. Choose another port.`;
  if (code === 'EACCES')
    return `This computer does not allow listening on port ${port}. Choose a port above 1024.`;
  if (code === 'EADDRNOTAVAIL') return `This computer has no address ${host}.`;
  return `The /v1 API could not start on ${host}:${port}.`;
}

/** The desk's company link is joined and left as a whole (#20): a loose write would half-join a server. */
function refuseCompanyLink(name: string): void {
  if (isCompanyLinkSetting(name)) {
    throw new OperationError('invalid', `${name} is changed by joining or leaving a company server.`);
  }
}

function themeOf(value: string): 'system' | 'light' | 'dark' {
  return value === 'light' || value === 'dark' ? value : 'system';
}

type SettingOperation =
  | 'app:info'
  | 'settings:get'
  | 'settings:get-one'
  | 'settings:set'
  | 'settings:reset'
  | 'listener:status'
  | 'listener:update';

export const settingOperations = {
  'app:info': {
    needs: 'service',
    run: (ctx) => ({
      version: ctx.app.version,
      sandbox: ctx.service.sandbox(),
      dataDir: ctx.app.dataDir,
      language: ctx.service.settings.get('ui.language') === 'en' ? 'en' : 'ru',
      theme: themeOf(ctx.service.settings.get('ui.theme')),
      listenerUrl: ctx.service.listener()?.url ?? null,
    }),
  },

  'settings:get': {
    needs: 'store',
    run: async ({ store }) => {
      const stored = await store.settings.all();
      return SETTING_NAMES.map((name) => view(name, stored.get(name)));
    },
  },

  'settings:get-one': {
    needs: 'store',
    run: async ({ store }, { name }) => {
      const known = knownName(name);
      return view(known, await store.settings.get(known));
    },
  },

  'settings:set': {
    needs: 'store',
    run: (ctx, { name, value }) => {
      // Inside the desk, listener:update restarts the listener and refuses non-loopback hosts; a plain write
      // here would do neither, and a network-facing host would then stop the app from starting next time.
      // The admin CLI (no running service) may set them: serve reads them when it starts.
      if (inService(ctx) && name.startsWith('listener.')) {
        throw new OperationError(
          'invalid',
          `${name} is changed through the listener settings (listener:update).`,
        );
      }
      refuseCompanyLink(name);
      return writeSetting(ctx.store, ctx.clock, name, value);
    },
  },

  'settings:reset': {
    needs: 'store',
    run: async (ctx, { name }) => {
      const { store } = ctx;
      if (inService(ctx) && name.startsWith('listener.')) {
        throw new OperationError(
          'invalid',
          `${name} is changed through the listener settings (listener:update).`,
        );
      }
      refuseCompanyLink(name);
      const known = knownName(name);
      await store.settings.write([{ name: known, value: null }], ctx.clock.now().toISOString());
      return view(known, undefined);
    },
  },

  'listener:status': { needs: 'service', run: (ctx) => listenerStatus(ctx) },

  'listener:update': {
    needs: 'service',
    run: async (ctx, input) => {
      // The schema already limits the host to loopback; this is the core's own rule, checked again.
      if (input.host !== undefined && !isLoopback(input.host)) {
        throw new OperationError('forbidden', 'The desktop app serves /v1 on this computer only.');
      }
      const s = ctx.service.settings;
      const before = {
        'listener.enabled': s.get('listener.enabled'),
        'listener.host': s.get('listener.host'),
        'listener.port': s.get('listener.port'),
      };
      await writeListener(ctx, {
        ...(input.enabled !== undefined ? { 'listener.enabled': input.enabled ? 'on' : 'off' } : {}),
        ...(input.host !== undefined ? { 'listener.host': input.host } : {}),
        ...(input.port !== undefined ? { 'listener.port': String(input.port) } : {}),
      });
      try {
        await ctx.service.restartListener();
      } catch (error) {
        // Put back what worked, so a typo in the port does not leave local tools without their API.
        const after = listenerStatus(ctx);
        await writeListener(ctx, before);
        await ctx.service.restartListener().catch(() => null);
        throw new OperationError('conflict', listenError(error, after.host, after.port));
      }
      return listenerStatus(ctx);
    },
  },
} satisfies AreaOperations<SettingOperation>;

const ops = settingOperations;
export const getSettings = storeCall('settings:get', ops['settings:get']);
export const getSetting = storeCall('settings:get-one', ops['settings:get-one']);
export const setSetting = storeCall('settings:set', ops['settings:set']);
export const resetSetting = storeCall('settings:reset', ops['settings:reset']);
