// The window API built over an ipcRenderer-like transport. Kept free of the `electron` import so the
// contract-agreement test can build it with a fake; index.ts passes the real ipcRenderer.
import {
  buildDeskApi,
  isDeskChannel,
  isDeskEvent,
  type DeskApi,
  type DeskChannel,
  type DeskEvent,
  type DeskResult,
} from '../../core/desk/contract';

/** The two ipcRenderer methods the bridge uses, with the event reduced to what it must never leak. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const refused = (message: string): DeskResult<never> => ({
  ok: false,
  error: { code: 'forbidden', message },
});

export function createDeskBridge(ipc: IpcRendererLike): DeskApi {
  const invoke = async (channel: DeskChannel, input: unknown): Promise<DeskResult<unknown>> => {
    // buildDeskApi only ever passes contract channels; the check keeps this true if that ever changes.
    if (!isDeskChannel(channel)) return refused(`unknown channel ${String(channel)}`);
    return (await ipc.invoke(channel, input)) as DeskResult<unknown>;
  };
  const subscribe = (event: DeskEvent, cb: (payload: unknown) => void): (() => void) => {
    if (!isDeskEvent(event)) return () => undefined;
    // The page gets the payload only: the IPC event carries `sender`, a way back to ipcRenderer itself
    // (Electron ipc.md; security checklist #20).
    const listener = (_event: unknown, payload: unknown): void => cb(payload);
    ipc.on(event, listener);
    return () => {
      ipc.removeListener(event, listener);
    };
  };
  return buildDeskApi(invoke, subscribe);
}
