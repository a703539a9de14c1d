// The e2e harness (design.md "IPC"): every test gets a REAL rating service on a temp data folder (sandbox
// carriers, /v1 listener on 127.0.0.1 with a free port) and the REAL desk handlers, and the page gets
// window.ratedesk with exactly the shape buildDeskApi gives the Electron preload. Only the transport
// differs: calls go through page.exposeBinding, events come back through page.evaluate. As in Electron, the
// binding dispatches through the desk router (core/desk/router.ts): the local service, or in company mode
// the company server.
//
//   import { test, expect, openApp } from './fixtures';
//   test('…', async ({ page, desk }) => { await openApp(page, 'history'); … desk.service … });
//   test.use({ deskOptions: { simulatorLatencyMs: 300, settings: { 'ui.language': 'en' } } });
//
// Company mode (#20): `deskOptions.company` starts a company server for the test: a real service on its own
// PostgreSQL database (one cluster per worker, started on the first company test; Debian's postgresql
// package, as the integration tests) with the desk gateway on 127.0.0.1 over TLS (a test certificate). The
// page's desk joins it before the page opens, as `company.join` says (default: a clerk named «Анна»);
// `join: false` leaves it in local mode for tests of the sign-in screen, which read `desk.company.url`,
// `fingerprint` and a code from `desk.company.userWithCode()`.
//
//   test.use({ deskOptions: { company: { join: { user: 'Анна', role: 'clerk' } } } });
//   test('…', async ({ page, desk }) => {
//     await desk.company!.stop();   // the server goes away: the banner; start() brings it back, same port
//     const code = await desk.company!.userWithCode('Борис', 'admin');
//     await desk.company!.call('warehouses:create', { name: 'Склад', city: 'Москва' });  // as the server's admin
//   });
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
import { createDeskRouter } from '../../core/desk/router';
import type { RatingService } from '../../core/service';
import { startCompanyServer, type CompanyServer } from '../helpers/company-desk';
import { startCluster, type PgCluster } from '../helpers/postgres-cluster';
import { startTestService, type TestService } from '../helpers/service';

export { expect };

export interface DeskOptions {
  /** Settings stored before the service starts (name → text value), e.g. { 'ui.language': 'en' }. */
  settings?: Record<string, string>;
  /** Fixed latency of every sandbox carrier, to watch results stream in; 0 by default. */
  simulatorLatencyMs?: number;
  /** Company mode (#20): a company server for the test, see the header. `true`: the defaults. */
  company?: CompanyOptions | true;
}

export interface CompanyOptions {
  /** Who the page's desk is signed in as when the page opens; false: not joined (local mode). */
  join?: { user: string; role: 'clerk' | 'admin'; device?: string } | false;
  /** The server's settings before it starts (name → text), e.g. { sandbox: 'on' }. */
  settings?: Record<string, string>;
}

/** The test's company server, as the desk's side sees it. */
export interface CompanyHarness {
  server: CompanyServer;
  /** What the clerk types: `https://127.0.0.1:PORT`. */
  url: string;
  /** The certificate's SHA-256 as company:probe shows it. */
  fingerprint: string;
  /** A new user and a fresh enrolment code for them. */
  userWithCode(name: string, role: 'clerk' | 'admin'): Promise<string>;
  /** A call on the server as its own admin (no role): set-up and checks. */
  call<C extends DeskChannel>(channel: C, input?: DeskInput<C>): Promise<DeskOutput<C>>;
  /** The server goes away (its port refuses connections) and comes back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
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
  /** Company mode only: the test's company server. */
  company?: CompanyHarness;
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

/** One PostgreSQL cluster per worker, started by the first company test (none for the others). */
type CompanyCluster = () => Promise<PgCluster>;

export const test = base.extend<{ deskOptions: DeskOptions; desk: Desk }, { companyCluster: CompanyCluster }>(
  {
    deskOptions: [{}, { option: true }],

    companyCluster: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        let cluster: Promise<PgCluster> | undefined;
        await use(
          () => (cluster ??= startCluster({ settings: { fsync: 'off', synchronous_commit: 'off' } })),
        );
        if (cluster) (await cluster).stop();
      },
      { scope: 'worker' },
    ],

    desk: [
      async ({ page, deskOptions, baseURL, companyCluster }, use) => {
        const company = deskOptions.company === true ? {} : deskOptions.company;
        const server = company
          ? await startCompanyServer({
              databaseUrl: await (await companyCluster()).createDatabase('e2e'),
              ...(company.settings ? { settings: company.settings } : {}),
            })
          : null;
        const ts = await startTestService({
          simulatorLatencyMs: deskOptions.simulatorLatencyMs ?? 0,
          appVersion: '0.0.0-e2e',
          // As Electron: the desk may join a company server; a short back-off so recovery is seen at once.
          companyDesk: { retry: { firstMs: 100, maxMs: 1_000 } },
          ...(deskOptions.settings ? { settings: deskOptions.settings } : {}),
        });
        // The host is a thin shell, as in Electron: one dispatch, one subscription through the desk router.
        const router = createDeskRouter(ts.service.desk, ts.service.company!);
        const push = eventPipe(page);
        const detach = router.subscribe(push);

        await page.exposeBinding('__ratedeskInvoke', (_source, channel: string, input: unknown) =>
          router.dispatch(channel, input),
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
            const r = (await router.dispatch(channel, input)) as DeskResult<DeskOutput<typeof channel>>;
            if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
            return r.value;
          },
          emit: (event, payload) => push(event, payload),
          http: { get: ts.get, postRates: ts.postRates, newKey: ts.newKey },
          ...(server
            ? {
                company: {
                  server,
                  get url() {
                    return server.url;
                  },
                  fingerprint: server.fingerprint,
                  userWithCode: (name, role) => server.userWithCode(name, role),
                  call: (channel, input) => server.call(channel, input),
                  stop: () => server.stop(),
                  start: () => server.start(),
                } satisfies CompanyHarness,
              }
            : {}),
        };
        try {
          const join = company?.join ?? { user: 'Анна', role: 'clerk' as const };
          if (server && join) await joinCompany(desk, server, join);
          await use(desk);
        } finally {
          detach();
          router.close();
          await ts.close();
          await server?.close();
          if (server) await (await companyCluster()).dropDatabase(server.databaseUrl);
        }
      },
      { auto: true },
    ],
  },
);

/** Signs the desk in as the page would (company:join with the pinned fingerprint) and waits until online. */
async function joinCompany(
  desk: Desk,
  server: CompanyServer,
  join: { user: string; role: 'clerk' | 'admin'; device?: string },
): Promise<void> {
  const code = await server.userWithCode(join.user, join.role);
  await desk.call('company:join', {
    url: server.url,
    code,
    device_name: join.device ?? 'Склад, касса 1',
    fingerprint: server.fingerprint,
  });
  const deadline = Date.now() + 10_000;
  while ((await desk.call('company:status')).connection !== 'online') {
    if (Date.now() > deadline) throw new Error('the desk did not come online on its company server');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens the app on a screen and waits until the shell is up. */
export async function openApp(page: Page, screen = 'quote'): Promise<void> {
  await page.goto(`./#/${screen}`);
  await expect(page.getByTestId(`nav-${screen.split('/')[0]}`)).toHaveAttribute('aria-current', 'page');
}

/** Saves a full-page screenshot under test-results/screenshots/ (looked at by people, used in README). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: false });
}
