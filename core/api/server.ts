// The /v1 listener on node:http (measured faster than a framework for three routes: docs/benchmarks.md).
// Order of checks: Host → (behind a proxy) X-Forwarded-Proto → Origin → route → authentication → rate limit →
// body/schema → idempotency → work. Over TLS (company mode) the same handler runs on node:https.
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { BalanceResponse, CarriersResponse } from '../contract/v1';
import { effectiveLimits } from '../contract/limits';
import type { TakeResult } from '../limits/token-bucket';
import { isLoopback } from '../settings/loopback';
import { StoreBusyError } from '../store/port';
import { newRequestId } from '../util/ids';
import { authenticate, wwwAuthenticate, type ConnectionAuthMemo } from './auth';
import { answerClientError, answerConnect } from './client-error';
import { checkCompanyListen, forwardedOverHttps, type CompanyListen } from './company-listen';
import { allowedHosts, isAllowedHost, isCrossSite, publicAllowedHosts } from './guards';
import { scanGuardHeaders } from './headers';
import { handlePoints } from './points';
import { EXT_RATES, handleRates, V1_RATES } from './rates';
import { baseHeaders, sendError, sendJson, type HeaderList } from './respond';
import type { ApiRuntime } from './runtime';

export { isLoopback };
import { queryHoldsKnownKey } from './query-keys';
import { parseTarget, queryCarriesSecret } from './target';
import {
  readTlsMaterial,
  secureContextOptions,
  TLS_HANDSHAKE_TIMEOUT_MS,
  tlsWarnings,
  type TlsFiles,
} from './tls-material';

type RouteName = 'rates' | 'balance' | 'carriers' | 'openapi' | 'ext-rates' | 'ext-points';
const ROUTES = new Map<string, { name: RouteName; method: 'GET' | 'POST' }>([
  ['/v1/rates', { name: 'rates', method: 'POST' }],
  ['/v1/balance', { name: 'balance', method: 'GET' }],
  ['/v1/carriers', { name: 'carriers', method: 'GET' }],
  ['/v1/openapi.json', { name: 'openapi', method: 'GET' }],
  // The clerk's quote (#21), a RateDesk extension beside /v1 with /v1's rules (docs/api.md); any other path
  // under /ext/ is /v1's 404.
  ['/ext/v1/rates', { name: 'ext-rates', method: 'POST' }],
  ['/ext/v1/points', { name: 'ext-points', method: 'POST' }],
]);

const AUTH_MEMO = Symbol('ratedesk.authMemo');
type MemoSocket = IncomingMessage['socket'] & { [AUTH_MEMO]?: ConnectionAuthMemo };

/** Failed authentications allowed per second across the listener before 429 (brute-force brake). */
const AUTH_FAILURE_LIMITS = { rps: 20, burst: 50 };
/** The brake's bucket: no account is called this (account buckets are named by their numeric id). */
const AUTH_FAILURE_BUCKET = 'auth-failures';
/** A secret in the query string (docs/api.md): the same 401 as a bad key, the query never echoed or logged. */
const QUERY_SECRET = { ok: false, code: 'invalid_api_key', presented: true } as const;
/** Key last-used dates are written at most this often per key, so a busy key costs no write per request. */
const TOUCH_INTERVAL_MS = 60_000;

export interface ListenOptions {
  host: string;
  port: number;
  /** Binding a non-loopback address exposes the API to the network: refused unless explicitly allowed. */
  allowRemote?: boolean;
  /** `serve --listen`: the company-network mode, whose own rules replace allowRemote (company-listen.ts). */
  company?: CompanyListen;
}

export interface ApiListener {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
  /** Over TLS: reads the certificate and key files again and uses them for new connections (SIGHUP). */
  reloadTls?(): void;
}

/** What the request handler checks that depends on how the listener was started. */
interface HandlerConfig {
  hosts: ReadonlySet<string>;
  scheme: 'http' | 'https';
  trustProxy: boolean;
}

export async function startApiListener(rt: ApiRuntime, options: ListenOptions): Promise<ApiListener> {
  const company = options.company;
  if (company) {
    const check = checkCompanyListen(options.host, options.port, company);
    if (check.refusal) throw new Error(check.refusal);
    for (const warning of check.warnings) rt.logger.warn(warning);
    if (company.tls) {
      for (const warning of tlsWarnings(company.tls, company.publicHosts, rt.clock.now())) {
        rt.logger.warn(warning);
      }
    }
  } else if (!isLoopback(options.host) && !options.allowRemote) {
    throw new Error(
      `Refusing to listen on ${options.host}: the API would be reachable from the network. ` +
        'Use 127.0.0.1, or pass --allow-remote if you really mean it.',
    );
  }
  const hostsFor = (port: number): ReadonlySet<string> =>
    company && company.publicHosts.length > 0
      ? publicAllowedHosts(company.publicHosts, port)
      : allowedHosts(port);
  const config: HandlerConfig = {
    hosts: hostsFor(options.port),
    scheme: company?.tls ? 'https' : 'http',
    trustProxy: company?.trustProxy ?? false,
  };
  const touching = new Set<string>();
  const httpOptions: ServerOptions = {
    requestTimeout: 30_000,
    headersTimeout: 10_000,
    keepAliveTimeout: 5_000,
    maxHeaderSize: 16 * 1024,
    connectionsCheckingInterval: 1_000,
    // A missing Host is refused by the Host guard (403 with the envelope), not by Node (an empty 400).
    requireHostHeader: false,
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(rt, req, res, config, touching);
  };
  const tls = company?.tls ?? null;
  // node:https's server is node:http's with TLS underneath: the same request events, timeouts and limits.
  const server: Server = tls
    ? (createTlsServer(
        { ...httpOptions, ...secureContextOptions(tls), handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS },
        onRequest,
      ) as unknown as Server)
    : createServer(httpOptions, onRequest);
  server.maxHeadersCount = 100;
  // With a listener here Node sends no `100 Continue` by itself: readBody sends it once the checks before
  // the body have passed, so a request refused early never uploads its body.
  server.on('checkContinue', (req, res) => void handle(rt, req, res, config, touching));
  server.on('checkExpectation', (_req, res) => {
    const requestId = newRequestId();
    sendError(res, 'expectation_failed', requestId, baseHeaders(requestId, rt.isSandbox()), {
      headers: { Connection: 'close' },
    });
  });
  server.on('clientError', (err: Error & { code?: string }, socket) =>
    answerClientError(err, socket, rt.isSandbox()),
  );
  server.on('connect', (req, socket) => answerConnect(req, socket, rt.isSandbox()));
  if (tls) {
    // node:https passes handshake failures (plain HTTP on this port, TLS 1.1, the handshake timeout) on as
    // 'clientError', whose handler writes an HTTP answer: none is due before TLS is up, only OpenSSL's alert.
    server.removeAllListeners('tlsClientError');
    server.on('tlsClientError', (_err: Error, socket: Socket) => socket.destroy());
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const boundPort = address.port;
  config.hosts = hostsFor(boundPort);
  if (company) {
    rt.logger.info('company-network listener', {
      address: address.address,
      port: boundPort,
      tls: tls !== null,
      trust_proxy: config.trustProxy,
      public_hosts: company.publicHosts,
    });
  } else if (!isLoopback(address.address)) {
    rt.logger.warn('the /v1 API is listening on a non-loopback address: it is reachable from the network', {
      address: address.address,
    });
  }
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: boundPort,
    url: `${config.scheme}://${shownHost}:${boundPort}`,
    ...(tls ? { reloadTls: () => reloadTls(rt, server, tls, company?.publicHosts ?? []) } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }),
  };
}

/**
 * New connections get the files' current certificate and key; open ones keep theirs. Files that fail the
 * checks of the start are logged and the running certificate kept, so a half-copied renewal breaks nothing.
 */
function reloadTls(rt: ApiRuntime, server: Server, files: TlsFiles, publicHosts: readonly string[]): void {
  try {
    const material = readTlsMaterial({ certFile: files.certFile, keyFile: files.keyFile });
    // setSecureContext() resets every TLS option it is not given, so the whole set, minimum version included.
    (server as unknown as { setSecureContext(o: object): void }).setSecureContext(
      secureContextOptions(material),
    );
    for (const warning of tlsWarnings(material, publicHosts, rt.clock.now())) rt.logger.warn(warning);
    rt.logger.info('TLS certificate reloaded', {
      cert: material.certFile,
      valid_to: new Date(material.certificate.validTo).toISOString(),
    });
  } catch (err) {
    rt.logger.error('TLS certificate not reloaded; the previous one stays in use', {
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

async function handle(
  rt: ApiRuntime,
  req: IncomingMessage,
  res: ServerResponse,
  config: HandlerConfig,
  touching: Set<string>,
): Promise<void> {
  const hosts = config.hosts;
  const requestId = newRequestId();
  let headers: HeaderList | undefined;
  try {
    rt.store.changes.beginRequest();
    headers = baseHeaders(requestId, rt.isSandbox());
    const guard = scanGuardHeaders(req);
    // The usual request names an exact path and needs no parsing of its target.
    const exact = ROUTES.get(req.url ?? '');
    const target = exact ? null : parseTarget(req.url ?? '', config.scheme);
    if (!isAllowedHost(guard, hosts)) return sendError(res, 'invalid_host', requestId, headers);
    // RFC 9112 §3.2.2: an absolute-form target's authority replaces Host, so it passes the same allowlist.
    if (target?.authority != null && !hosts.has(target.authority)) {
      return sendError(res, 'invalid_host', requestId, headers);
    }
    // Behind a TLS-terminating proxy: a request that reached the proxy over plain HTTP is refused, whatever it
    // asks (docs/api.md, "The company-network listener").
    if (config.trustProxy && !forwardedOverHttps(req)) {
      return sendError(res, 'https_required', requestId, headers);
    }
    if (isCrossSite(guard)) return sendError(res, 'origin_not_allowed', requestId, headers);
    const route = exact ?? (target ? ROUTES.get(target.path) : undefined);
    // The extension beside /v1 (#20): after the guards above, never for a /v1 route.
    const extension = rt.extension;
    if (!route && extension && target?.path.startsWith(extension.prefix)) {
      return await extension.handle(req, res, { requestId, headers, path: target.path, query: target.query });
    }
    if (!route) return sendError(res, 'not_found', requestId, headers);
    if (req.method !== route.method) {
      return sendError(res, 'method_not_allowed', requestId, headers, { headers: { Allow: route.method } });
    }
    if (route.name === 'openapi') return sendJson(res, 200, rt.openApiJson(), headers);

    const query = target?.query ?? null;
    let auth =
      query !== null && queryCarriesSecret(query)
        ? QUERY_SECRET
        : authenticate(guard.authorization, rt.keyCache, ((req.socket as MemoSocket)[AUTH_MEMO] ??= {}));
    // A key the cache holds is answered without waiting (the usual request); only a cold key waits.
    if (auth instanceof Promise) auth = await auth;
    // #16: any key RateDesk holds, imported ones included, is refused in the query too. Looked up only for a
    // request whose own key is good, so the refusal tells an unauthenticated caller nothing about a value.
    if (auth.ok && query !== null && (await queryHoldsKnownKey(query, rt.keyCache))) auth = QUERY_SECRET;
    if (!auth.ok) {
      const brake = await rt.store.takeToken(
        AUTH_FAILURE_BUCKET,
        AUTH_FAILURE_LIMITS,
        rt.clock.monotonicMs(),
      );
      if (!brake.allowed) {
        return sendError(res, 'rate_limit_exceeded', requestId, headers, {
          headers: { 'Retry-After': String(brake.retryAfterSeconds) },
        });
      }
      return sendError(res, auth.code, requestId, headers, {
        headers: { 'WWW-Authenticate': wwwAuthenticate(auth.presented) },
      });
    }
    const row = auth.row;
    const limits = effectiveLimits(row);
    const take = await rt.store.takeToken(String(row.account_id), limits, rt.clock.monotonicMs());
    addRateLimitHeaders(headers, limits, take);
    if (!take.allowed) {
      return sendError(res, 'rate_limit_exceeded', requestId, headers, {
        headers: { 'Retry-After': String(take.retryAfterSeconds) },
      });
    }
    touchKey(rt, touching, row.key_id, auth.lastUsedMs);

    switch (route.name) {
      case 'balance': {
        const body: BalanceResponse = { balance: row.balance };
        return sendJson(res, 200, JSON.stringify(body), headers);
      }
      case 'carriers': {
        const body: CarriersResponse = { carriers: await rt.carriers() };
        return sendJson(res, 200, JSON.stringify(body), headers);
      }
      case 'rates':
        return await handleRates(rt, req, res, row, requestId, headers, V1_RATES);
      case 'ext-rates':
        return await handleRates(rt, req, res, row, requestId, headers, EXT_RATES);
      case 'ext-points':
        return await handlePoints(rt, req, res, requestId, headers);
    }
  } catch (err) {
    if (err instanceof StoreBusyError) {
      // Another process holds the data file's write lock past the bound: nothing was written or charged.
      rt.logger.warn('data file busy: answered 503', { request_id: requestId, error: String(err) });
      return sendError(res, 'service_unavailable', requestId, headers ?? baseHeaders(requestId, false), {
        headers: { 'Retry-After': '1' },
      });
    }
    rt.logger.error('unexpected error in the /v1 listener', {
      request_id: requestId,
      error: err instanceof Error ? err.message : String(err),
    });
    sendError(res, 'internal_error', requestId, headers ?? baseHeaders(requestId, false));
  }
}

/**
 * draft-ietf-httpapi-ratelimit-headers-10: the policy is the bucket (q = capacity, w = seconds to refill it
 * from empty); the state is the whole tokens left (r) and the seconds until the bucket is full again (t).
 */
function addRateLimitHeaders(
  headers: HeaderList,
  limits: { rps: number; burst: number },
  take: TakeResult,
): void {
  const window = Math.max(1, Math.ceil(limits.burst / limits.rps));
  headers.push(
    'RateLimit-Policy',
    `"account";q=${limits.burst};w=${window}`,
    'RateLimit',
    `"account";r=${take.remaining};t=${take.resetSeconds}`,
  );
}

/** `touching`: keys whose date is queued, so a busy file does not queue one write per request. */
function touchKey(rt: ApiRuntime, touching: Set<string>, keyId: string, lastUsedMs: number): void {
  const now = rt.clock.now();
  if (now.getTime() - lastUsedMs < TOUCH_INTERVAL_MS || touching.has(keyId)) return;
  touching.add(keyId);
  // Not awaited: the date rides along with the next batch of writes; losing it in a crash is harmless.
  rt.store.keys
    .touch(keyId, now.toISOString())
    .catch((err: unknown) => {
      rt.logger.warn('could not record key use', { key_id: keyId, error: String(err) });
    })
    .finally(() => touching.delete(keyId));
}
