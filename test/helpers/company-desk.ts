// A company server with the desk gateway and desks that join it (#20), for the integration tests and the e2e
// harness alike: a REAL rating service on a PostgreSQL database (the caller brings its URL: vitest's
// createTestDatabase, or the e2e harness's own cluster), its listener on 127.0.0.1 over TLS with a test
// certificate (test/helpers/tls.ts), and desks that are real desk services (their own data folder) whose
// calls go through core/desk/router.ts, exactly as Electron's window's do.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTlsMaterial } from '../../core/api/tls-material';
import type { DeskChannel, DeskEvent, DeskInput, DeskOutput, DeskResult } from '../../core/desk/contract';
import { createDeskRouter, type DeskRouter } from '../../core/desk/router';
import { createRatingService, type RatingService, type RatingServiceOptions } from '../../core/service';
import type { Clock } from '../../core/util/clock';
import type { Logger } from '../../core/util/logger';
import { makeCertificate, type TestCertificate } from './tls';

export interface CompanyServer {
  service: RatingService;
  databaseUrl: string;
  port: number;
  /** `https://127.0.0.1:PORT` */
  url: string;
  cert: TestCertificate;
  /** The certificate's SHA-256 as the probe shows it ("AB:CD:…"). */
  fingerprint: string;
  /** A server-side call as the server's own admin (no actor: may run everything). */
  call<C extends DeskChannel>(channel: C, input?: DeskInput<C>): Promise<DeskOutput<C>>;
  /** A user (clerk or admin) and a fresh enrolment code for them. */
  userWithCode(name: string, role: 'clerk' | 'admin'): Promise<string>;
  /** Stops the service (the port goes quiet); start() brings it back on the same port and database. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface CompanyServerOptions {
  databaseUrl: string;
  clock?: Clock;
  logger?: Logger;
  /** Settings written before start (name → text). */
  settings?: Record<string, string>;
}

export async function startCompanyServer(o: CompanyServerOptions): Promise<CompanyServer> {
  const cert = makeCertificate(['localhost'], ['127.0.0.1']);
  const dataDir = mkdtempSync(join(tmpdir(), 'ratedesk-company-'));
  if (o.settings) {
    const { openCompanyStore } = await import('../../core/store/company');
    const store = await openCompanyStore(o.databaseUrl);
    await store.settings.write(
      Object.entries(o.settings).map(([name, value]) => ({ name, value })),
      new Date().toISOString(),
    );
    await store.close();
  }
  const tls = readTlsMaterial({ certFile: cert.certFile, keyFile: cert.keyFile });
  const fingerprint = tls.certificate.fingerprint256;
  let port = 0;
  const open = async (): Promise<RatingService> => {
    const service = await createRatingService({
      dataDir,
      database: { url: o.databaseUrl },
      listen: { host: '127.0.0.1', port, company: { publicHosts: [], trustProxy: false, tls } },
      deskGateway: true,
      warmUp: false,
      ...(o.clock ? { clock: o.clock } : {}),
      ...(o.logger ? { logger: o.logger } : {}),
    } satisfies RatingServiceOptions);
    port = service.listener!.port;
    return service;
  };
  let service: RatingService | null = await open();
  const server: CompanyServer = {
    get service() {
      if (!service) throw new Error('the company server is stopped');
      return service;
    },
    databaseUrl: o.databaseUrl,
    get port() {
      return port;
    },
    get url() {
      return `https://127.0.0.1:${port}`;
    },
    cert,
    fingerprint,
    async call(channel, input) {
      const r = (await server.service.desk.dispatch(channel, input)) as DeskResult<
        DeskOutput<typeof channel>
      >;
      if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
      return r.value;
    },
    async userWithCode(name, role) {
      await server.call('users:add', { name, role });
      return (await server.call('users:enrol', { name })).code;
    },
    async stop() {
      const running = service;
      service = null;
      await running?.close();
    },
    async start() {
      if (!service) service = await open();
    },
    async close() {
      await server.stop();
      cert.remove();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

export interface TestDesk {
  service: RatingService;
  router: DeskRouter;
  dataDir: string;
  /** Every event the window would get, in order. */
  events: Array<{ event: DeskEvent; payload: unknown }>;
  /** What the window's call gets (the envelope). */
  dispatch(channel: string, raw?: unknown): Promise<DeskResult<unknown>>;
  /** The same, unwrapped: throws on an error envelope. */
  call<C extends DeskChannel>(channel: C, input?: DeskInput<C>): Promise<DeskOutput<C>>;
  /** Resolves with the first event matching `match` (already seen ones count), or rejects after `ms`. */
  waitFor(match: (e: { event: DeskEvent; payload: unknown }) => boolean, ms?: number): Promise<unknown>;
  /** Joins `server` with `code`, pinning its certificate. */
  join(server: Pick<CompanyServer, 'url' | 'fingerprint'>, code: string, deviceName?: string): Promise<void>;
  /** Stops the desk (keeps its folder: start another on `dataDir` to resume). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface TestDeskOptions extends Partial<Omit<RatingServiceOptions, 'dataDir'>> {
  dataDir?: string;
}

/** A desk service (listener off) routed through the router, with a short reconnect back-off. */
export async function startTestDesk(o: TestDeskOptions = {}): Promise<TestDesk> {
  const { dataDir: given, ...rest } = o;
  const dataDir = given ?? mkdtempSync(join(tmpdir(), 'ratedesk-desk-'));
  const service = await createRatingService({
    dataDir,
    listen: false,
    warmUp: false,
    companyDesk: { retry: { firstMs: 100, maxMs: 500 } },
    ...rest,
  });
  const router = createDeskRouter(service.desk, service.company!);
  const events: TestDesk['events'] = [];
  const waiters = new Set<() => void>();
  router.subscribe((event, payload) => {
    events.push({ event, payload });
    for (const w of [...waiters]) w();
  });
  const desk: TestDesk = {
    service,
    router,
    dataDir,
    events,
    dispatch: (channel, raw) => router.dispatch(channel, raw),
    async call(channel, input) {
      const r = (await router.dispatch(channel, input)) as DeskResult<DeskOutput<typeof channel>>;
      if (!r.ok) throw new Error(`${channel}: ${r.error.code}: ${r.error.message}`);
      return r.value;
    },
    waitFor(match, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const hit = events.find(match);
          if (!hit) return false;
          waiters.delete(check as () => void);
          clearTimeout(timer);
          resolve(hit.payload);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check as () => void);
          reject(
            new Error(`no matching event within ${ms} ms; seen: ${events.map((e) => e.event).join(', ')}`),
          );
        }, ms);
        if (!check()) waiters.add(check as () => void);
      });
    },
    async join(server, code, deviceName = 'Desk') {
      await desk.call('company:join', {
        url: server.url,
        code,
        device_name: deviceName,
        fingerprint: server.fingerprint,
      });
      await desk.waitFor(
        (e) => e.event === 'company:status' && (e.payload as { connection: string }).connection === 'online',
      );
    },
    async stop() {
      router.close();
      await service.close();
    },
    async close() {
      await desk.stop().catch(() => {});
      if (!given) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return desk;
}
