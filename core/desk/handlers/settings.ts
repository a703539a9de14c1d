// App info and the settings the UI edits directly (ui.*, box presets, default carriers, sandbox switch).
import { AdminError } from '../../admin/errors';
import { getSettings, setSetting } from '../../admin/settings';
import type { DeskContext, HandlersOf } from '../context';

export function settingsHandlers(ctx: DeskContext): HandlersOf<'app:info' | 'settings:get' | 'settings:set'> {
  const { service } = ctx;
  return {
    'app:info': async () => ({
      version: ctx.host.appVersion,
      sandbox: service.sandbox(),
      dataDir: ctx.host.dataDir,
      language: service.settings.get('ui.language') === 'en' ? 'en' : 'ru',
      theme: themeOf(service.settings.get('ui.theme')),
      listenerUrl: service.listener?.url ?? null,
    }),
    'settings:get': async () => getSettings(service.store, ctx.clock),
    'settings:set': async (input) => {
      // listener:update restarts the listener and refuses non-loopback hosts; a plain write here would
      // do neither, and a network-facing host would then stop the app from starting next time.
      if (input.name.startsWith('listener.')) {
        throw new AdminError(
          'invalid',
          `${input.name} is changed through the listener settings (listener:update).`,
        );
      }
      const view = setSetting(service.store, ctx.clock, input);
      service.settings.invalidate();
      return view;
    },
  };
}

function themeOf(value: string): 'system' | 'light' | 'dark' {
  return value === 'light' || value === 'dark' ? value : 'system';
}
