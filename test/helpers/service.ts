// A real rating service on a temp data folder, listening on 127.0.0.1 with a free port, plus a raw HTTP
// client (node:http, so tests control every header, Host included).
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLimits } from '../../core/operations';
import { createKey } from '../../core/operations';
import { createRatingService, type RatingService, type RatingServiceOptions } from '../../core/service';
import { CARRIER_CODES, type CarrierCode } from '../../core/carriers/types';
import type { Clock } from '../../core/util/clock';

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON shapes
  json: any;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Leave out the Host header (node:http adds one unless told not to). */
  noHost?: boolean;
}

export function rawRequest(port: number, r: RawRequest): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = {
      ...(r.noHost ? {} : { Host: `127.0.0.1:${port}` }),
      ...r.headers,
    };
    const req = httpRequest(
      { host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

export const SHIPMENT = {
  from: { city: 'Москва', postal_code: '101000' },
  to: { city: 'Казань', postal_code: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
};

export interface TestService {
  service: RatingService;
  dir: string;
  port: number;
  key: string;
  get(path: string, key?: string): Promise<HttpResult>;
  postRates(body: unknown, extraHeaders?: Record<string, string>, key?: string): Promise<HttpResult>;
  newKey(account?: string): Promise<string>;
  /** Stops the service, keeping the folder (for restart tests). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Settings that leave only these built-in carriers switched on. Tests written about particular carriers (the
 * first two, or one new carrier on its own) pin them, so a carrier added later changes only the tests about
 * all carriers.
 */
export function onlyCarriers(...codes: CarrierCode[]): Record<string, string> {
  return Object.fromEntries(
    CARRIER_CODES.map((c) => [`carriers.${c}.enabled`, codes.includes(c) ? 'on' : 'off']),
  );
}

/** CDEK and Russian Post alone: the carriers the tests before #11 were written about. */
export const FIRST_TWO_CARRIERS = onlyCarriers('cdek', 'russian-post');

export interface TestServiceOptions extends Partial<Omit<RatingServiceOptions, 'dataDir'>> {
  dir?: string;
  clock?: Clock;
  settings?: Record<string, string>;
  /** Keep the free tier's 2 req/s on `default` (rate-limit tests); otherwise it gets a generous override. */
  tierLimits?: boolean;
}

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'ratedesk-test-'));
  const { settings, dir: _dir, tierLimits, ...rest } = options;
  if (settings) {
    // Seed settings before start, through a short-lived store (of the company database when given one).
    const { openDataFolder } = await import('../../core/store/data-folder');
    const { openCompanyStore } = await import('../../core/store/company');
    const store = rest.database ? await openCompanyStore(rest.database.url) : openDataFolder(dir);
    await store.settings.write(
      Object.entries(settings).map(([name, value]) => ({ name, value })),
      new Date().toISOString(),
    );
    await store.close();
  }
  const service = await createRatingService({
    dataDir: dir,
    listen: { host: '127.0.0.1', port: 0 },
    ...rest,
  });
  const port = service.listener!.port;
  const newKey = async (account = 'default'): Promise<string> =>
    (await createKey(service.store, { now: () => new Date() }, { account, name: `test ${Math.random()}` }))
      .secret;
  if (!tierLimits)
    await setLimits(
      service.store,
      { now: () => new Date() },
      { account: 'default', rps: 10_000, burst: 10_000 },
    );
  const key = await newKey();
  const t: TestService = {
    service,
    dir,
    port,
    key,
    newKey,
    get: (path, k = key) => rawRequest(port, { path, headers: { Authorization: `Bearer ${k}` } }),
    postRates: (body, extra = {}, k = key) =>
      rawRequest(port, {
        method: 'POST',
        path: '/v1/rates',
        headers: { Authorization: `Bearer ${k}`, 'Content-Type': 'application/json', ...extra },
        body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
      }),
    stop: () => service.close(),
    async close() {
      await service.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

/** A clock whose wall time tests can move forward (idempotency expiry) while the monotonic clock is real. */
export function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    monotonicMs: () => performance.now(),
    advance(ms: number) {
      offset += ms;
    },
  };
}
