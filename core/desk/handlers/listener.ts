// The /v1 listener's switch, port and bind address, and whether it is running right now.
import { setSetting } from '../../admin/settings';
import { isLoopback } from '../../api/server';
import type { SettingName } from '../../settings/schema';
import type { ListenerStatus } from '../contract';
import type { DeskContext, HandlersOf } from '../context';
import { DeskFailure } from '../errors';

const NAMES = [
  'listener.enabled',
  'listener.host',
  'listener.port',
] as const satisfies readonly SettingName[];

/** enabled/host/port are the settings (port 0: any free port); running/url are what is bound now. */
function status(ctx: DeskContext): ListenerStatus {
  const s = ctx.service.settings;
  const listener = ctx.service.listener;
  return {
    enabled: s.get('listener.enabled') === 'on',
    host: s.get('listener.host'),
    port: Number(s.get('listener.port')),
    running: listener !== null,
    url: listener?.url ?? null,
  };
}

function write(ctx: DeskContext, values: Partial<Record<(typeof NAMES)[number], string>>): void {
  const store = ctx.service.store;
  store.tx(() => {
    for (const name of NAMES) {
      const value = values[name];
      if (value !== undefined) setSetting(store, ctx.clock, { name, value });
    }
  });
  ctx.service.settings.invalidate();
}

function listenError(error: unknown, host: string, port: number): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use by another program. Choose another port.`;
  if (code === 'EACCES')
    return `This computer does not allow listening on port ${port}. Choose a port above 1024.`;
  if (code === 'EADDRNOTAVAIL') return `This computer has no address ${host}.`;
  return `The /v1 API could not start on ${host}:${port}.`;
}

export function listenerHandlers(ctx: DeskContext): HandlersOf<'listener:status' | 'listener:update'> {
  return {
    'listener:status': async () => status(ctx),
    'listener:update': async (input) => {
      // The contract already limits the host to loopback; this is the core's own rule, checked again.
      if (input.host !== undefined && !isLoopback(input.host)) {
        throw new DeskFailure('forbidden', 'The desktop app serves /v1 on this computer only.');
      }
      const s = ctx.service.settings;
      const before = {
        'listener.enabled': s.get('listener.enabled'),
        'listener.host': s.get('listener.host'),
        'listener.port': s.get('listener.port'),
      };
      write(ctx, {
        ...(input.enabled !== undefined ? { 'listener.enabled': input.enabled ? 'on' : 'off' } : {}),
        ...(input.host !== undefined ? { 'listener.host': input.host } : {}),
        ...(input.port !== undefined ? { 'listener.port': String(input.port) } : {}),
      });
      try {
        await ctx.service.restartListener();
      } catch (error) {
        // Put back what worked, so a typo in the port does not leave local tools without their API.
        const after = status(ctx);
        write(ctx, before);
        await ctx.service.restartListener().catch(() => null);
        throw new DeskFailure('conflict', listenError(error, after.host, after.port));
      }
      return status(ctx);
    },
  };
}
