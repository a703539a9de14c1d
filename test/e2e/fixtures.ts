// The e2e harness (design.md "IPC"): every test gets a REAL rating service on a temp data folder (sandbox
// carriers, /v1 listener on 127.0.0.1 with a free port) and the REAL desk handlers, and the page gets
// window.ratedesk with exactly the shape buildDeskApi gives the Electron preload. Only the transport
// differs: calls go through page.exposeBinding, events come back through page.evaluate.
//
//   import { test, expect, openApp } from './fixtures';
//   test('…', async ({ page, desk }) => { await openApp(page, 'history'); … desk.service … });
//   test.use({ deskOptions: { simulatorLatencyMs: 300, settings: { 'ui.language': 'en' } } });
import { test as base, expect, type Page } from '@playwright/test';
import {
  buildDeskApi,
  DESK_API_GLOBAL,
  type DeskChannel,
  type DeskEvent,
  type DeskEventPayload,
  type DeskInput,
  type DeskOutput,
  type DeskResult,
} from '../../core/desk/contract';
import type { RatingService } from '../../core/service';
import { startTestService, type TestService } from '../helpers/service';

export { expect };

export interface DeskOptions {
  /** Settings stored before the service starts (name → text value), e.g. { 'ui.language': 'en' }. */
  settings?: Record<string, string>;
  /** Fixed latency of every sandbox carrier, to watch results stream in; 0 by default. */
  simulatorLatencyMs?: number;
}

export interface Desk {
  service: RatingService;
  /** The temp data folder (removed after the test). */
  dataDir: string;
  /** Port of the /v1 listener, and a valid API key of the `default` account. */
  port: number;
  apiKey: string;
  /** The same call the page makes, from the test side (setting up data, checking results). */
  call<C extends DeskChannel>(channel: C, input?: DeskInput<C>): Promise<DeskOutput<C>>;
  /** Pushes an event to the page as the core would. */
  emit<E extends DeskEvent>(event: E, payload: DeskEventPayload<E>): void;
  /** A raw HTTP helper bound to the listener (as in the integration tests). */
  http: Pick<TestService, 'get' | 'postRates' | 'newKey'>;
}

/**
 * The channel → method map of buildDeskApi, read off a real buildDeskApi object with a recording transport,
 * so the init script builds the identical shape without importing anything (it runs before any module).
 */
function deskApiShape(): {
  methods: [area: string, method: string, channel: string][];
  events: [method: string, event: string][];
} {
  let lastChannel = '';
  let lastEvent = '';
  const api = buildDeskApi(
    (channel) => {
      lastChannel = channel;
      return Promise.resolve({ ok: true, value: undefined });
    },
    (event) => {
      lastEvent = event;
      return () => {};
    },
  ) as unknown as Record<string, Record<string, (arg?: unknown) => unknown>>;
  const methods: [string, string, string][] = [];
  const events: [string, string][] = [];
  for (const [area, group] of Object.entries(api)) {
    for (const [method, fn] of Object.entries(group)) {
      if (area === 'on') {
        fn(() => {});
        events.push([method, lastEvent]);
      } else {
        void fn(undefined);
        methods.push([area, method, lastChannel]);
      }
    }
  }
  return { methods, events };
}

/** Runs in the page before its scripts: builds window.ratedesk over the binding, with event fan-out. */
function installDeskApi(arg: {
  global: string;
  methods: [string, string, string][];
  events: [string, string][];
}): void {
  type Cb = (payload: unknown) => void;
  const w = window as unknown as Record<string, unknown> & {
    __ratedeskInvoke: (channel: string, input: unknown) => Promise<unknown>;
  };
  const subscribers = new Map<string, Set<Cb>>();
  Object.defineProperty(window, '__ratedeskEmit', {
    value: (event: string, payload: unknown) => {
      for (const cb of [...(subscribers.get(event) ?? [])]) {
        try {
          cb(payload);
        } catch (err) {
          console.error('ratedesk event handler failed', err);
        }
      }
    },
  });
  const api: Record<string, Record<string, unknown>> = { on: {} };
  for (const [area, method, channel] of arg.methods) {
    (api[area] ??= {})[method] = (input?: unknown) => w.__ratedeskInvoke(channel, input);
  }
  for (const [method, event] of arg.events) {
    api['on']![method] = (cb: Cb) => {
      let set = subscribers.get(event);
      if (!set) subscribers.set(event, (set = new Set()));
      set.add(cb);
      return () => set.delete(cb);
    };
  }
  for (const group of Object.values(api)) Object.freeze(group);
  Object.defineProperty(window, arg.global, { value: Object.freeze(api), enumerable: true });
}

/**
 * Pushes events to the page in order, batching whatever the core emitted in the same turn into one
 * page.evaluate (each evaluate is a round trip; a quote emits several events within a millisecond).
 */
function eventPipe(page: Page): (event: string, payload: unknown) => void {
  let queue: [string, unknown][] = [];
  let chain = Promise.resolve();
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    const batch = queue;
    queue = [];
    chain = chain.then(() =>
      page
        .evaluate((items) => {
          const emit = (window as unknown as { __ratedeskEmit?: (e: string, p: unknown) => void })
            .__ratedeskEmit;
          for (const [e, p] of items) emit?.(e, p);
        }, batch)
        .catch(() => {
          // The page is navigating or closed: an event nobody can receive is dropped, as in Electron.
        }),
    );
  };
  return (event, payload) => {
    queue.push([event, payload]);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

export const test = base.extend<{ deskOptions: DeskOptions; desk: Desk }>({
  deskOptions: [{}, { option: true }],

  desk: [
    async ({ page, deskOptions, baseURL }, use) => {
      const ts = await startTestService({
        simulatorLatencyMs: deskOptions.simulatorLatencyMs ?? 0,
        appVersion: '0.0.0-e2e',
        ...(deskOptions.settings ? { settings: deskOptions.settings } : {}),
      });
      // The host is a thin shell, as in Electron: one dispatch, one subscription; only the transport differs.
      const push = eventPipe(page);
      const detach = ts.service.desk.subscribe(push);

      await page.exposeBinding('__ratedeskInvoke', (_source, channel: string, input: unknown) =>
        ts.service.desk.dispatch(channel, input),
      );
      await page.addInitScript(installDeskApi, { global: DESK_API_GLOBAL, ...deskApiShape() });
      if (baseURL) {
        await page
          .context()
          .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL).origin });
      }

      const desk: Desk = {
        service: ts.service,
        dataDir: ts.dir,
        port: ts.port,
        apiKey: ts.key,
        async call(channel, input) {
          const r = (await ts.service.desk.dispatch(channel, input)) as DeskResult<
            DeskOutput<typeof channel>
          >;
          if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
          return r.value;
        },
        emit: (event, payload) => push(event, payload),
        http: { get: ts.get, postRates: ts.postRates, newKey: ts.newKey },
      };
      try {
        await use(desk);
      } finally {
        detach();
        await ts.close();
      }
    },
    { auto: true },
  ],
});

/** Opens the app on a screen and waits until the shell is up. */
export async function openApp(page: Page, screen = 'quote'): Promise<void> {
  await page.goto(`./#/${screen}`);
  await expect(page.getByTestId(`nav-${screen.split('/')[0]}`)).toHaveAttribute('aria-current', 'page');
}

/** Saves a full-page screenshot under test-results/screenshots/ (looked at by people, used in README). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: false });
}
