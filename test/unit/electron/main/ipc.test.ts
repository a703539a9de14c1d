// The IPC wrapper with a fake ipcMain and a real core: sender check first, then the contract's parse, then
// the handler, and only result envelopes come back (design.md "IPC").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deskChannels, type DeskResult } from '../../../../core/desk/contract';
import { createRatingService, type RatingService } from '../../../../core/service';
import {
  isTrustedSender,
  pushTo,
  registerDeskIpc,
  type InvokeEventLike,
} from '../../../../electron/main/ipc';
import { FakeIpcMain, TOP_FRAME } from '../helpers/fake-ipc';

let dir: string;
let service: RatingService;
let ipc: FakeIpcMain;
let unregister: () => void;
const pushed: Array<[string, unknown]> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ratedesk-ipc-'));
  service = await createRatingService({
    dataDir: dir,
    listen: false,
    simulatorLatencyMs: 0,
    appVersion: '0.0.0-test',
  });
  service.desk.subscribe((event, payload) => pushed.push([event, payload]));
  ipc = new FakeIpcMain();
  unregister = registerDeskIpc(ipc, (channel, raw) => service.desk.dispatch(channel, raw));
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const forbidden = { ok: false, error: { code: 'forbidden', message: expect.any(String) } };

describe('sender check', () => {
  it.each([
    ['no frame (navigated away or destroyed)', null],
    ['an iframe of our own page', { parent: TOP_FRAME, url: 'app://ratedesk/index.html' }],
    ['a top frame of another site', { parent: null, url: 'https://evil.example/' }],
    ['a look-alike origin', { parent: null, url: 'app://ratedesk.evil/index.html' }],
    ['credentials in the URL', { parent: null, url: 'app://ratedesk@evil/index.html' }],
    ['a file: page', { parent: null, url: 'file:///tmp/index.html' }],
    ['a data: page', { parent: null, url: 'data:text/html,<script></script>' }],
    ['the dev server', { parent: null, url: 'http://localhost:5173/' }],
    ['about:blank', { parent: null, url: 'about:blank' }],
  ])('refuses %s before looking at the input', async (_label, frame) => {
    const spy = vi.spyOn(service.store.accounts, 'list');
    expect(await ipc.invoke('accounts:list', undefined, frame)).toEqual(forbidden);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('refuses a frame whose senderFrame getter throws (Electron does so for a disposed frame)', () => {
    const event = {
      get senderFrame(): InvokeEventLike['senderFrame'] {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    expect(isTrustedSender(event)).toBe(false);
  });

  it('accepts the top frame of app://ratedesk/', () => {
    expect(isTrustedSender({ senderFrame: TOP_FRAME })).toBe(true);
    expect(isTrustedSender({ senderFrame: { parent: null, url: 'app://ratedesk/#/keys' } })).toBe(true);
  });
});

describe('after the sender check', () => {
  it('answers invalid input with an "invalid" envelope, never an exception', async () => {
    for (const [channel, input] of [
      ['accounts:topup', { account: 'default', requests: -5 }],
      ['accounts:topup', { account: 'default', requests: 1, extra: true }],
      ['keys:revoke', { id: 'not-a-key-id' }],
      ['history:get', 'a string'],
      ['quote:run', { quoteKey: 'q', shipment: { from: {} } }],
    ] as const) {
      const r = (await ipc.invoke(channel, input)) as DeskResult<unknown>;
      expect(r.ok, channel).toBe(false);
      if (!r.ok) expect(r.error.code, channel).toBe('invalid');
    }
  });

  it('answers a valid call with ok and the value', async () => {
    const r = (await ipc.invoke('accounts:list', undefined)) as DeskResult<Array<{ name: string }>>;
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.map((a) => a.name)).toContain('default');
  });

  it('runs a sandbox quote end to end and streams progress through emit', async () => {
    pushed.length = 0;
    const r = (await ipc.invoke('quote:run', {
      quoteKey: 'ipc-test',
      shipment: {
        from: { city: 'Москва', postal_code: '101000' },
        to: { city: 'Казань', postal_code: '420000' },
        parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
      },
    })) as DeskResult<{ sandbox: boolean; rates: unknown[] }>;
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.sandbox).toBe(true);
      expect(r.value.rates.length).toBeGreaterThan(0);
    }
    expect(pushed.some(([event]) => event === 'quote:progress')).toBe(true);
  });

  it('keeps a not-found failure as such and hides unexpected errors behind "internal"', async () => {
    const missing = (await ipc.invoke('history:get', { id: 999_999 })) as DeskResult<unknown>;
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const spy = vi.spyOn(service.store.accounts, 'list').mockImplementation(() => {
      throw new Error('SQLITE_CORRUPT: database disk image is malformed at /home/user/.config/RateDesk');
    });
    const r = (await ipc.invoke('accounts:list', undefined)) as DeskResult<unknown>;
    spy.mockRestore();
    expect(r).toEqual({ ok: false, error: { code: 'internal', message: 'Unexpected error' } });
  });
});

describe('registration', () => {
  it('registers exactly the contract channels, once each, and removes them again', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(Object.keys(deskChannels).sort());
    const other = new FakeIpcMain();
    const off = registerDeskIpc(other, async () => ({ ok: true, value: null }));
    expect(other.handlers.size).toBe(Object.keys(deskChannels).length);
    off();
    expect(other.handlers.size).toBe(0);
    expect(unregister).toBeTypeOf('function');
  });
});

describe('pushTo', () => {
  it('sends to the live window and drops events once it is gone', () => {
    const sent: unknown[] = [];
    let destroyed = false;
    const target = {
      isDestroyed: () => destroyed,
      send: (channel: string, payload: unknown) => sent.push([channel, payload]),
    };
    let current: typeof target | null = target;
    const emit = pushTo(() => current);
    emit('balance:low', { account: 'a', threshold: 100, balance: 99, at: 'now' });
    destroyed = true;
    emit('balance:low', { account: 'a', threshold: 100, balance: 98, at: 'now' });
    current = null;
    emit('balance:low', { account: 'a', threshold: 100, balance: 97, at: 'now' });
    expect(sent).toEqual([['balance:low', { account: 'a', threshold: 100, balance: 99, at: 'now' }]]);
  });
});
