// A local 5Post API (protocols.md §8, verified-2026 §8) for sandbox mode and tests: JWTs from
// POST /jwt-generate-claims/rs256/1?apikey=… (form body), the catalogue from POST /api/v1/pickuppoints/query
// with a Bearer JWT, failing the way 5Post's Apigee gateway and API do. The catalogue is fivepost-points.ts:
// the small sandbox one by default, or `points` of them (5Post's ~25,000) built page by page.
// 5Post's download limits hold (integration guide §3.1): pages of at most 2,000 points (lapaygroup README:
// «Больше 2000 за раз получить нельзя»; 500 is only its advice), and sliding windows of 3,000 points a second,
// 50,000 an hour and 150,000 a day per API key, answered with 429 beyond. The 429 body is Apigee's own
// (SpikeArrest for the second, Quota for the hour and day), 5Post's gateway; 5Post's exact wording is unknown.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fivePostCatalogue } from './fivepost-points';
import { startSimulatorServer, type SimulatorExchange, type SimulatorHandle } from './handle';
import { readBody } from './read-body';

export interface FivePostSimulatorOptions {
  latencyMs?: number;
  apiKey?: string;
  /** JWT lifetime; 5Post's is about an hour. */
  tokenTtlSeconds?: number;
  /** Catalogue size: the sandbox catalogue by default; REAL_POINT_COUNT for 5Post's own. */
  points?: number;
  /** 5Post's windows (points served per second, hour and day); tests lower them to reach them quickly. */
  limits?: Partial<PointWindows>;
}

export interface PointWindows {
  perSecond: number;
  perHour: number;
  perDay: number;
}

/** Integration guide §3.1. */
export const FIVEPOST_SIM_WINDOWS: PointWindows = { perSecond: 3_000, perHour: 50_000, perDay: 150_000 };

export type CatalogueBehaviour = 'ok' | 'hang' | 'error';

export interface FivePostSimulatorHandle extends SimulatorHandle {
  tokenRequests(): number;
  pageRequests(): number;
  /** Points served in catalogue pages so far. */
  pointsServed(): number;
  /** Page requests refused with 429. */
  rateLimited(): number;
  /** Tests: make catalogue pages hang or fail with HTTP 500, as a catalogue outage would. */
  setCatalogueBehaviour(behaviour: CatalogueBehaviour): void;
  /** Expire every issued JWT now (the next page request gets 401). */
  expireTokens(): void;
}

const MAX_PAGE_SIZE = 2000;

type Json = Record<string, unknown>;

export async function startFivePostSimulator(
  options: FivePostSimulatorOptions = {},
): Promise<FivePostSimulatorHandle> {
  const apiKey = options.apiKey ?? 'fivepost-simulator-key';
  const ttl = options.tokenTtlSeconds ?? 3600;
  const tokens = new Map<string, number>();
  const exchanges = new WeakMap<ServerResponse, SimulatorExchange>();
  let tokenCalls = 0;
  let pageCalls = 0;
  let behaviour: CatalogueBehaviour = 'ok';
  const catalogue = fivePostCatalogue(options.points);
  const windows = { ...FIVEPOST_SIM_WINDOWS, ...options.limits };
  /** Pages served: when (Date.now()) and how many points, for the sliding windows. */
  let served: Array<{ atMs: number; points: number }> = [];
  let servedTotal = 0;
  let refused = 0;

  function send(res: ServerResponse, status: number, body: Json): void {
    exchanges.get(res)?.send(status, JSON.stringify(body), { 'content-type': 'application/json' });
  }

  /** Apigee's fault body, the gateway in front of 5Post's API. */
  function fault(res: ServerResponse, status: number, faultstring: string, errorcode: string): void {
    send(res, status, { fault: { faultstring, detail: { errorcode } } });
  }

  function issue(res: ServerResponse, url: URL, req: IncomingMessage, body: string): void {
    tokenCalls += 1;
    const key = url.searchParams.get('apikey');
    if (key === null)
      return fault(
        res,
        401,
        'Failed to resolve API Key variable request.queryparam.apikey',
        'steps.oauth.v2.FailedToResolveAPIKey',
      );
    if (key !== apiKey) return fault(res, 401, 'Invalid ApiKey', 'oauth.v2.InvalidApiKey');
    const type = req.headers['content-type'] ?? '';
    const form = new URLSearchParams(body);
    // The documented form body; an empty one is accepted as well (FP-GUIDE says it works).
    if (
      body !== '' &&
      (!type.startsWith('application/x-www-form-urlencoded') || form.get('subject') !== 'OpenAPI')
    )
      return send(res, 400, {
        error: 'invalid_request',
        message: 'subject=OpenAPI expected as a form parameter',
        status: 400,
      });
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: 'urn://Apigee',
      sub: 'OpenAPI',
      aud: form.get('audience') ?? 'A122019!',
      iat: now,
      exp: now + ttl,
      jti: randomBytes(8).toString('hex'),
    };
    const jwt = [
      Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      randomBytes(32).toString('base64url'),
    ].join('.');
    tokens.set(jwt, Date.now() + ttl * 1000);
    send(res, 200, { jwt });
  }

  function page(res: ServerResponse, req: IncomingMessage, body: string): void {
    pageCalls += 1;
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const expiry = m ? tokens.get(m[1]!) : undefined;
    if (expiry === undefined) return fault(res, 401, 'Invalid access token', 'oauth.v2.InvalidAccessToken');
    if (expiry <= Date.now())
      return fault(res, 401, 'Access Token expired', 'keymanagement.service.access_token_expired');
    if (behaviour === 'hang') return;
    if (behaviour === 'error')
      return send(res, 500, {
        error: 'Internal Server Error',
        message: 'catalogue unavailable',
        status: 500,
      });
    let q: unknown;
    try {
      q = JSON.parse(body);
    } catch {
      return send(res, 400, { error: 'Bad Request', message: 'JSON parse error', status: 400 });
    }
    const { pageSize, pageNumber } = (q ?? {}) as { pageSize?: unknown; pageNumber?: unknown };
    if (!Number.isInteger(pageSize) || (pageSize as number) < 1 || (pageSize as number) > MAX_PAGE_SIZE)
      return send(res, 400, {
        error: 'Bad Request',
        message: `pageSize must be between 1 and ${MAX_PAGE_SIZE}`,
        status: 400,
      });
    if (!Number.isInteger(pageNumber) || (pageNumber as number) < 0)
      return send(res, 400, { error: 'Bad Request', message: 'pageNumber must be 0 or more', status: 400 });
    const size = pageSize as number;
    const start = (pageNumber as number) * size;
    const content = catalogue.slice(start, size);
    const limited = overLimit(content.length);
    if (limited) {
      refused += 1;
      return fault(res, 429, limited.faultstring, limited.errorcode);
    }
    served.push({ atMs: Date.now(), points: content.length });
    servedTotal += content.length;
    send(res, 200, {
      content,
      totalPages: Math.ceil(catalogue.total / size),
      totalElements: catalogue.total,
      numberOfElements: content.length,
      number: pageNumber,
      size,
      first: pageNumber === 0,
      last: start + size >= catalogue.total,
      empty: content.length === 0,
    });
  }

  /** The window `points` more would overflow, in Apigee's words; null when they fit. */
  function overLimit(points: number): { faultstring: string; errorcode: string } | null {
    const now = Date.now();
    served = served.filter((p) => p.atMs > now - 24 * 3600_000);
    const since = (ms: number) => served.filter((p) => p.atMs > now - ms).reduce((a, p) => a + p.points, 0);
    if (since(1000) + points > windows.perSecond)
      return {
        faultstring: `Spike arrest violation. Allowed rate : MessageRate{messagesPerPeriod=${windows.perSecond}, periodInMicroseconds=1000000}`,
        errorcode: 'policies.ratelimit.SpikeArrestViolation',
      };
    if (since(3600_000) + points > windows.perHour || since(24 * 3600_000) + points > windows.perDay)
      return {
        faultstring: 'Rate limit quota violation. Quota limit  exceeded. Identifier : _default',
        errorcode: 'policies.ratelimit.QuotaViolation',
      };
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const body = await readBody(req);
    if (body === null) return send(res, 413, { error: 'Payload Too Large', status: 413 });
    const route = `${req.method ?? ''} ${url.pathname}`;
    switch (route) {
      case 'POST /jwt-generate-claims/rs256/1':
        return issue(res, url, req, body);
      case 'POST /api/v1/pickuppoints/query':
        return page(res, req, body);
      default:
        return send(res, 404, { error: 'Not Found', message: `No handler for ${route}`, status: 404 });
    }
  }

  const server = await startSimulatorServer(
    (exchange) => {
      exchanges.set(exchange.res, exchange);
      return handle(exchange.req, exchange.res);
    },
    {
      latencyMs: options.latencyMs ?? 0,
      onError: ({ res }) => send(res, 500, { error: 'Internal Server Error', status: 500 }),
    },
  );
  return {
    ...server,
    tokenRequests: () => tokenCalls,
    pageRequests: () => pageCalls,
    pointsServed: () => servedTotal,
    rateLimited: () => refused,
    setCatalogueBehaviour: (b) => {
      behaviour = b;
    },
    expireTokens: () => {
      for (const t of tokens.keys()) tokens.set(t, 0);
    },
  };
}
