// Where a desk call goes (#20). Local mode: the local service, as always. Company mode: the desk's own
// operations (its company link, its /v1 listener: DESK_LOCAL_OPERATIONS) stay here, every other call goes to
// the company server, and the desk's own settings (ui.*, company.*) stay local: settings:get is the server's
// list with them overlaid, settings:set sends only the others. A call the server cannot take now fails with
// `offline`: nothing is ever answered from the local data instead. Electron's IPC and the e2e harness both
// dispatch through this, so they behave alike.
import { isDeskLocalOperation, type AppInfo, type SettingView } from '../contract/operations';
import { isDeskLocalSetting } from '../settings/schema';
import type { DeskCompanyLink } from './company-link';
import type { DeskEvent, DeskResult } from './contract';

type Listener = (event: DeskEvent, payload: unknown) => void;

/** The local service's desk (service.desk). */
export interface LocalDesk {
  dispatch(channel: string, raw: unknown): Promise<DeskResult<unknown>>;
  subscribe(listener: Listener): () => void;
}

export interface DeskRouter {
  dispatch(channel: string, raw: unknown): Promise<DeskResult<unknown>>;
  /** Every event the window shows, from whichever side is in use. Returns its unsubscribe function. */
  subscribe(listener: Listener): () => void;
  close(): void;
}

export function createDeskRouter(local: LocalDesk, link: DeskCompanyLink): DeskRouter {
  const listeners = new Set<Listener>();
  const tell: Listener = (event, payload) => {
    for (const listener of listeners) listener(event, payload);
  };
  // The local service's events are the local data's: in company mode only the link's own status is.
  const offLocal = local.subscribe((event, payload) => {
    if (!link.companyMode || event === 'company:status') tell(event, payload);
  });
  const offRemote = link.onRemoteEvent((event, payload) => {
    if (link.companyMode) tell(event, payload);
  });

  async function dispatch(channel: string, raw: unknown): Promise<DeskResult<unknown>> {
    if (!link.companyMode || isDeskLocalOperation(channel)) return local.dispatch(channel, raw);
    switch (channel) {
      case 'settings:get':
        return settingsGet();
      case 'settings:set':
        return settingNameOf(raw) !== undefined && isDeskLocalSetting(settingNameOf(raw)!)
          ? local.dispatch(channel, raw)
          : link.dispatch(channel, raw);
      case 'app:info':
        return appInfo();
      default:
        return link.dispatch(channel, raw);
    }
  }

  // A desk that starts while the server is away still speaks its clerk's language in its own theme: the
  // desk's own settings and facts are answered from here then, and nothing of the server's is made up.
  async function settingsGet(): Promise<DeskResult<unknown>> {
    const remote = await link.dispatch('settings:get', undefined);
    if (!remote.ok && remote.error.code !== 'offline') return remote;
    const own = await local.dispatch('settings:get', undefined);
    if (!own.ok) return own;
    const mine = (own.value as SettingView[]).filter((s) => isDeskLocalSetting(s.name));
    if (!remote.ok) return { ok: true, value: mine };
    const byName = new Map(mine.map((s) => [s.name, s]));
    const merged = (remote.value as SettingView[]).map((s) =>
      isDeskLocalSetting(s.name) ? (byName.get(s.name) ?? s) : s,
    );
    return { ok: true, value: merged };
  }

  /**
   * This desk's own facts (version, language, theme, data folder, its /v1 URL); sandbox is the server's, the
   * last one it told while it is away (quotes wait for it then, so no price is shown under a stale flag).
   */
  let serverSandbox: boolean | undefined;
  async function appInfo(): Promise<DeskResult<unknown>> {
    const remote = await link.dispatch('app:info', undefined);
    if (!remote.ok && remote.error.code !== 'offline') return remote;
    const own = await local.dispatch('app:info', undefined);
    if (!own.ok) return own;
    if (remote.ok) serverSandbox = (remote.value as AppInfo).sandbox;
    // Never heard from the server: say sandbox, the side that never passes a price off as real.
    const info: AppInfo = { ...(own.value as AppInfo), sandbox: serverSandbox ?? true };
    return { ok: true, value: info };
  }

  return {
    dispatch,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      offLocal();
      offRemote();
      listeners.clear();
    },
  };
}

function settingNameOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const name = (raw as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}
