// Contract, operations, IPC registration and preload agree: every channel of deskChannels has an operation in
// the one table, a registration in the IPC wrapper and a function on window.ratedesk that invokes
// exactly that channel; every event reaches the page without the IPC event object (design.md "IPC").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deskChannels,
  deskEventMethod,
  deskEvents,
  deskMethodPath,
  type DeskApi,
  type DeskChannel,
  type DeskEvent,
  type DeskResult,
} from '../../../core/desk/contract';
import { OPERATIONS } from '../../../core/operations';
import { createRatingService, type RatingService } from '../../../core/service';
import { registerDeskIpc } from '../../../electron/main/ipc';
import { createDeskBridge } from '../../../electron/preload/desk-bridge';
import { FakeIpcMain, FakeIpcRenderer } from './helpers/fake-ipc';

const CHANNELS = Object.keys(deskChannels).sort() as DeskChannel[];
const EVENTS = Object.keys(deskEvents).sort() as DeskEvent[];

type Fn = (arg?: unknown) => unknown;
function methodOf(api: DeskApi, channel: DeskChannel): Fn | undefined {
  const [area, method] = deskMethodPath(channel);
  return (api as unknown as Record<string, Record<string, Fn> | undefined>)[area]?.[method];
}
function subscriberOf(
  api: DeskApi,
  event: DeskEvent,
): ((cb: (p: unknown) => void) => () => void) | undefined {
  return (api.on as unknown as Record<string, (cb: (p: unknown) => void) => () => void>)[
    deskEventMethod(event)
  ];
}

let dir: string;
let service: RatingService;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-agreement-'));
  service = await createRatingService({
    dataDir: dir,
    listen: false,
    simulatorLatencyMs: 0,
    appVersion: '0.0.0-test',
  });
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('contract ⇄ operations ⇄ IPC ⇄ preload', () => {
  it('has an operation for every channel', () => {
    for (const channel of CHANNELS) expect(typeof OPERATIONS[channel].run, channel).toBe('function');
  });

  it('registers every channel with ipcMain', () => {
    const ipc = new FakeIpcMain();
    registerDeskIpc(ipc, (channel, raw) => service.desk.dispatch(channel, raw));
    expect([...ipc.handlers.keys()].sort()).toEqual(CHANNELS);
  });

  it('gives the page one function per channel, each invoking exactly its own channel', async () => {
    const renderer = new FakeIpcRenderer();
    const api = createDeskBridge(renderer);
    for (const channel of CHANNELS) {
      const fn = methodOf(api, channel);
      expect(fn, channel).toBeTypeOf('function');
      renderer.invoked.length = 0;
      await fn!({ probe: channel });
      expect(renderer.invoked, channel).toEqual([{ channel, args: [{ probe: channel }] }]);
    }
    const areas = Object.entries(api as unknown as Record<string, Record<string, unknown>>).filter(
      ([a]) => a !== 'on',
    );
    const functions = areas.reduce((n, [, fns]) => n + Object.keys(fns).length, 0);
    expect(functions).toBe(CHANNELS.length);
  });

  it('exposes only functions and plain objects (what contextBridge can copy), never the transport', () => {
    const renderer = new FakeIpcRenderer();
    const api = createDeskBridge(renderer) as unknown as Record<string, Record<string, unknown>>;
    for (const [area, fns] of Object.entries(api)) {
      expect(Object.getPrototypeOf(fns), area).toBe(Object.prototype);
      for (const [name, fn] of Object.entries(fns)) expect(typeof fn, `${area}.${name}`).toBe('function');
    }
    const names = Object.values(api).flatMap((fns) => Object.keys(fns));
    for (const forbidden of ['invoke', 'send', 'sendSync', 'on', 'ipcRenderer', 'removeListener']) {
      expect(names).not.toContain(forbidden);
    }
  });

  it('answers every channel through the full chain with a result envelope, never an exception', async () => {
    const main = new FakeIpcMain();
    registerDeskIpc(main, (channel, raw) => service.desk.dispatch(channel, raw));
    const api = createDeskBridge(new FakeIpcRenderer(main));
    for (const channel of CHANNELS) {
      // A deliberately wrong input: every channel must turn it into an 'invalid' envelope.
      const r = (await methodOf(api, channel)!({
        definitely_not_in_the_contract: true,
      })) as DeskResult<unknown>;
      expect(r, channel).toMatchObject({ ok: false, error: { code: 'invalid' } });
    }
    const info = (await api.app.info()) as DeskResult<{ version: string; sandbox: boolean }>;
    expect(info).toMatchObject({ ok: true, value: { version: '0.0.0-test', sandbox: true } });
  });

  it('delivers every event as its payload alone and unsubscribes cleanly', () => {
    const renderer = new FakeIpcRenderer();
    const api = createDeskBridge(renderer);
    for (const event of EVENTS) {
      const subscribe = subscriberOf(api, event);
      expect(subscribe, event).toBeTypeOf('function');
      const received: unknown[][] = [];
      const off = subscribe!((...args: unknown[]) => received.push(args));
      renderer.push(event, { n: 1 });
      expect(received, event).toEqual([[{ n: 1 }]]);
      expect(JSON.stringify(received)).not.toContain('ipcRenderer itself');
      off();
      expect(renderer.listenerCount(event), event).toBe(0);
      renderer.push(event, { n: 2 });
      expect(received.length, event).toBe(1);
    }
  });
});
