// The one IPC wrapper (design.md "IPC"): every contract channel is registered here and every message runs
// sender check → dispatchDesk (zod parse → handler → result envelope). No raw error crosses the boundary,
// and nothing uses sendSync. Takes an ipcMain-like object so tests drive it without Electron.
import { deskChannels, type DeskChannel, type DeskEvent, type DeskResult } from '../../core/desk/contract';
import { isTrustedRendererUrl } from './trusted-url';

/** The parts of Electron's IpcMainInvokeEvent the sender check reads. */
export interface InvokeEventLike {
  readonly senderFrame: { readonly parent: unknown; readonly url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type Dispatch = (channel: DeskChannel, raw: unknown) => Promise<DeskResult<unknown>>;

const FORBIDDEN: DeskResult<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'This request did not come from the RateDesk window.' },
};

/**
 * Only the top frame of our own page may call the core (Electron security checklist #17): an iframe, a
 * page that got navigated elsewhere, or a frame already gone is refused.
 */
export function isTrustedSender(event: InvokeEventLike): boolean {
  let frame: InvokeEventLike['senderFrame'];
  try {
    frame = event.senderFrame;
  } catch {
    // Electron throws when the frame was navigated or destroyed while the message was in flight.
    return false;
  }
  return frame !== null && frame.parent === null && isTrustedRendererUrl(frame.url);
}

/** Registers every contract channel; returns the function that removes them again. */
export function registerDeskIpc(ipcMain: IpcMainLike, dispatch: Dispatch): () => void {
  const channels = Object.keys(deskChannels) as DeskChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, async (event, raw) => {
      if (!isTrustedSender(event)) return FORBIDDEN;
      return dispatch(channel, raw);
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/** The parts of WebContents that pushing an event needs. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

/** An emit function for attachDeskEvents that pushes to one window and forgets it once it is closed. */
export function pushTo(target: () => EventTarget | null): (event: DeskEvent, payload: unknown) => void {
  return (event, payload) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(event, payload);
  };
}
