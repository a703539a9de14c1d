// Stand-ins for ipcMain and ipcRenderer that connect in memory, so the IPC wrapper and the preload bridge
// run exactly as in Electron, minus the process boundary.
import type { InvokeEventLike, IpcMainLike } from '../../../../electron/main/ipc';
import type { IpcRendererLike } from '../../../../electron/preload/desk-bridge';

type Handler = (event: InvokeEventLike, ...args: unknown[]) => unknown;
type Listener = (event: unknown, ...args: unknown[]) => void;

export const TOP_FRAME = { parent: null, url: 'app://ratedesk/index.html' } as const;

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();

  handle(channel: string, listener: Handler): void {
    // Electron throws on a second handler for one channel; so does the fake.
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  /** What ipcRenderer.invoke would get back, sent from `frame`. */
  async invoke(
    channel: string,
    input: unknown,
    frame: InvokeEventLike['senderFrame'] = TOP_FRAME,
  ): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    // Electron passes arguments through the structured clone algorithm.
    return handler({ senderFrame: frame }, structuredClone(input));
  }
}

/** An ipcRenderer whose invoke goes to a FakeIpcMain from the top frame, and whose events can be pushed. */
export class FakeIpcRenderer implements IpcRendererLike {
  readonly listeners = new Map<string, Set<Listener>>();
  readonly invoked: Array<{ channel: string; args: unknown[] }> = [];
  /** The event object a real ipcRenderer would pass: it carries `sender`, which must never reach the page. */
  readonly event = { sender: { secret: 'ipcRenderer itself' }, senderId: 0 };

  constructor(private readonly main?: FakeIpcMain) {}

  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return this.main ? this.main.invoke(channel, args[0]) : { ok: true, value: channel };
  }

  on(channel: string, listener: Listener): this {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return this;
  }

  removeListener(channel: string, listener: Listener): this {
    this.listeners.get(channel)?.delete(listener);
    return this;
  }

  push(channel: string, payload: unknown): void {
    for (const l of this.listeners.get(channel) ?? []) l(this.event, structuredClone(payload));
  }

  listenerCount(channel: string): number {
    return this.listeners.get(channel)?.size ?? 0;
  }
}
