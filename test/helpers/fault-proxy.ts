// A fault-injecting HTTP proxy for the carrier chaos suite (test/reliability/carrier-chaos.test.ts). It sits
// between each sandbox adapter and its simulator (RatingServiceOptions.sandboxFront) and decides, per
// carrier and per /v1 request, whether to pass the exchange through or break it: latency, a hang, a TCP
// reset, a truncated or trickled body, a malformed or wrongly shaped payload, a 429/5xx, an oversized body.
//
// A /v1 request fans out to several upstream calls per carrier (Russian Post: one GET per product; CDEK:
// token + tarifflist), sharing keep-alive connections with other requests, so neither the connection nor
// the arrival order says which /v1 request an upstream call belongs to. The request's own content does:
// the suite gives every /v1 request a distinct parcel weight (its "tag"), every adapter forwards the weight
// to its carrier, and the proxy finds it in the URL or body. That needs no knowledge of any carrier's
// protocol, so a carrier added later is tagged too (grams or kilograms with decimals); an upstream call that
// carries no tag (CDEK's shared, cached token request) is passed through untouched.
//
// One listener per carrier, as each real carrier is its own origin: undici then keeps a separate connection
// pool per carrier, exactly as in live mode, and a hung carrier cannot starve another one's connections.
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { kind: 'none' }
  /** The real answer, `ms` late. */
  | { kind: 'latency'; ms: number }
  /** Reads the request, never answers; only the client's abort ends it. */
  | { kind: 'hang' }
  /** TCP RST as soon as the request has been read, before any byte of the answer. */
  | { kind: 'reset' }
  /**
   * Half of the real body, then the connection ends: `content-length` declares the full length, `chunked`
   * never sends the last chunk, `eof` has no length at all so the cut looks like a complete (short) body.
   */
  | { kind: 'truncated'; framing: 'content-length' | 'chunked' | 'eof' }
  /** The real answer, its body sent in small pieces spread evenly over `totalMs`. */
  | { kind: 'slow_body'; totalMs: number }
  /** A 200 whose body is not JSON (`cut`: the real body minus its last character). */
  | { kind: 'malformed'; variant: 'cut' | 'html' | 'empty' | 'binary' }
  /** A 200 with valid JSON of the wrong shape (`renamed`: the real body with every object key renamed). */
  | { kind: 'wrong_shape'; variant: 'null' | 'array' | 'scalar' | 'object' | 'renamed' }
  /**
   * An error status. `retryAfter`: the Retry-After header to send (seconds or an HTTP date); without it none
   * is sent, because RateDesk obeys it and leaves the carrier alone that long (docs/carriers.md).
   */
  | { kind: 'http_status'; status: number; body: 'json' | 'html' | 'empty'; retryAfter?: string }
  /** The real answer plus `bytes` (≤ 4 MiB) of padding, still valid JSON; a declared length or chunked. */
  | { kind: 'oversized'; framing: 'content-length' | 'chunked'; bytes: number };

export type FaultKind = Fault['kind'];

/** The coarse label a summary counts by: the issue's list of fault kinds (429 apart from the 5xx). */
export function faultLabel(f: Fault): string {
  if (f.kind !== 'http_status') return f.kind;
  return f.status >= 500 ? 'http_5xx' : `http_${f.status}`;
}

/** A readable one-liner for failure messages (`truncated/chunked`, `http_status/503/html`, `latency/120ms`). */
export function describeFault(f: Fault): string {
  switch (f.kind) {
    case 'none':
    case 'hang':
    case 'reset':
      return f.kind;
    case 'latency':
      return `latency/${f.ms}ms`;
    case 'slow_body':
      return `slow_body/${f.totalMs}ms`;
    case 'truncated':
    case 'oversized':
      return `${f.kind}/${f.framing}`;
    case 'malformed':
    case 'wrong_shape':
      return `${f.kind}/${f.variant}`;
    case 'http_status':
      return `http_status/${f.status}/${f.body}${f.retryAfter === undefined ? '' : `/retry-after=${f.retryAfter}`}`;
  }
}

export interface CarrierProxyStats {
  /** Upstream calls the adapter made through the proxy. */
  calls: number;
  /** Calls without a planned tag (passed through untouched). */
  untagged: number;
  /** Calls whose content matched more than one planned tag (passed through; the suite asserts none). */
  ambiguous: number;
  /** Calls broken on purpose, by faultLabel. */
  injected: Record<string, number>;
}

export interface FaultProxy {
  /** Pass as `sandboxFront`: the adapter of `carrier` talks to this proxy instead of `simulatorUrl`. */
  front: (carrier: string, simulatorUrl: string) => string;
  /** Upstream calls of `carrier` that carry `tag` get `fault` (until replaced or forgotten). */
  plan(tag: number, carrier: string, fault: Fault): void;
  forget(tag: number): void;
  /** Carriers whose adapter has been pointed at the proxy (front was called for them). */
  fronted(): string[];
  /** How many upstream calls of `carrier` carried `tag` (so the suite can tell a fault was really applied). */
  hits(tag: number, carrier: string): number;
  stats(): Record<string, CarrierProxyStats>;
  /** Exchanges held open right now (hangs, trickles, latency waits): 0 once every adapter has given up. */
  openExchanges(): number;
  close(): Promise<void>;
}

interface Route {
  carrier: string;
  server: Server;
  port: number;
  target: URL | null;
}

const MAX_UPSTREAM_REQUEST_BYTES = 1024 * 1024;
const JSON_ERRORS: Record<number, string> = { 401: 'invalid_token', 429: 'too_many_requests' };
const TRICKLE_STEP_MS = 15;
const HTML_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>' +
  '<hr><center>nginx</center></body></html>';

export async function startFaultProxy(carriers: readonly string[]): Promise<FaultProxy> {
  const routes = new Map<string, Route>();
  const plans = new Map<number, Map<string, Fault>>();
  const hitCounts = new Map<string, number>();
  const stats: Record<string, CarrierProxyStats> = {};
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  // Keep-alive towards the simulators: a soak run makes tens of thousands of upstream calls.
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });

  function later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function findTag(text: string): number | null | 'ambiguous' {
    const found = new Set<number>();
    // Whole numbers only: digits inside an identifier (a GUID such as PEK's warehouse ids, "3f2504e0-…") are
    // not a weight, and once matched another request's tag in flight.
    for (const m of text.matchAll(/(?<![\w.-])\d+(?:\.\d+)?(?![\w-])/g)) {
      const n = Number(m[0]);
      // Grams as sent, or kilograms with decimals (a carrier that takes kg would send 2.417 for 2417 g).
      for (const candidate of m[0].includes('.') ? [Math.round(n * 1000)] : [n]) {
        if (plans.has(candidate)) found.add(candidate);
      }
    }
    if (found.size > 1) return 'ambiguous';
    const [only] = found;
    return only ?? null;
  }

  async function handle(route: Route, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const st = stats[route.carrier]!;
    st.calls += 1;
    res.on('error', () => {});
    const body = await readAll(req);
    const target = route.target;
    if (body === null || target === null) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('fault proxy: no upstream');
      return;
    }
    const decoded = safeDecode(`${req.url ?? ''}\n`, body);
    const tag = findTag(decoded);
    let fault: Fault = { kind: 'none' };
    if (tag === 'ambiguous') st.ambiguous += 1;
    else if (tag === null) st.untagged += 1;
    else {
      const key = `${tag}|${route.carrier}`;
      hitCounts.set(key, (hitCounts.get(key) ?? 0) + 1);
      fault = plans.get(tag)?.get(route.carrier) ?? { kind: 'none' };
    }
    if (fault.kind !== 'none') {
      const label = faultLabel(fault);
      st.injected[label] = (st.injected[label] ?? 0) + 1;
    }

    // Once more on a failure: a kept-alive socket the simulator closes just as it is reused (its
    // keepAliveTimeout) fails the exchange without any fault planned, and read as a carrier 502 in one CI run.
    const send = (): Promise<Upstream> =>
      sendUpstream(upstreamAgent, target, req.method ?? 'GET', req.url ?? '/', req.headers, body);
    const forward = (): Promise<Upstream | null> =>
      send()
        .catch(() => send())
        .catch(() => null);
    const gone = (): boolean => res.destroyed || res.writableEnded || req.socket.destroyed;
    open.add(res);
    res.on('close', () => open.delete(res));

    switch (fault.kind) {
      case 'hang':
        return; // the adapter's abort closes the socket, which ends the exchange
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'http_status':
        return answerStatus(res, fault.status, fault.body, fault.retryAfter);
      case 'latency':
        later(fault.ms, () => {
          if (gone()) return;
          void forward().then((up) => {
            if (gone()) return;
            if (up) relay(res, up);
            else failUpstream(res);
          });
        });
        return;
      default:
        break;
    }

    const up = await forward();
    if (gone()) return;
    if (!up) return failUpstream(res);
    switch (fault.kind) {
      case 'none':
        return relay(res, up);
      case 'truncated':
        return truncate(req.socket, up, fault.framing);
      case 'slow_body':
        return trickle(res, up, fault.totalMs, gone);
      case 'malformed':
        return answerRaw(res, 200, malformedBody(up.body, fault.variant));
      case 'wrong_shape':
        return answerRaw(res, 200, Buffer.from(wrongShapeBody(up.body, fault.variant)));
      case 'oversized':
        return oversize(res, up, fault.framing, fault.bytes, gone);
    }
  }

  function trickle(res: ServerResponse, up: Upstream, totalMs: number, gone: () => boolean): void {
    res.writeHead(up.status, { 'content-type': up.contentType, 'content-length': up.body.length });
    const steps = Math.max(2, Math.round(totalMs / TRICKLE_STEP_MS));
    const started = performance.now();
    let sent = 0;
    // Each piece goes out when its share of totalMs has passed, measured from the start rather than from
    // the previous piece: a busy event loop (the service shares this process) then delays the end by one
    // late timer, not by the sum of every late timer, and a "slow but in time" body stays in time.
    const next = (): void => {
      if (gone()) return;
      const elapsed = performance.now() - started;
      const due = elapsed >= totalMs ? up.body.length : Math.floor((up.body.length * elapsed) / totalMs);
      if (due >= up.body.length) {
        res.end(up.body.subarray(sent));
        return;
      }
      if (due > sent) res.write(up.body.subarray(sent, due));
      sent = Math.max(sent, due);
      later(Math.min(totalMs / steps, totalMs - elapsed), next);
    };
    later(totalMs / steps, next);
  }

  function oversize(
    res: ServerResponse,
    up: Upstream,
    framing: 'content-length' | 'chunked',
    bytes: number,
    gone: () => boolean,
  ): void {
    const pieces = paddedJson(up.body, bytes);
    const length = pieces.reduce((n, p) => n + p.length, 0);
    if (framing === 'content-length') {
      res.writeHead(200, { 'content-type': up.contentType, 'content-length': length });
      for (const p of pieces) res.write(p);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': up.contentType });
    const CHUNK = 64 * 1024;
    const queue = pieces.flatMap((p) =>
      Array.from({ length: Math.ceil(p.length / CHUNK) }, (_, i) => p.subarray(i * CHUNK, (i + 1) * CHUNK)),
    );
    const pump = (): void => {
      while (queue.length > 0 && !gone()) {
        if (!res.write(queue.shift()!)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!gone()) res.end();
    };
    pump();
  }

  for (const carrier of carriers) {
    stats[carrier] = { calls: 0, untagged: 0, ambiguous: 0, injected: {} };
    const route: Route = { carrier, server: createServer(), port: 0, target: null };
    // A reset or an abandoned exchange surfaces as a socket error: expected here, never a crash.
    route.server.on('connection', (socket: Socket) => socket.on('error', () => {}));
    route.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      handle(route, req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) res.writeHead(502).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      route.server.once('error', reject);
      route.server.listen(0, '127.0.0.1', () => resolve());
    });
    route.port = (route.server.address() as AddressInfo).port;
    routes.set(carrier, route);
  }

  return {
    front(carrier, simulatorUrl) {
      const route = routes.get(carrier);
      if (!route) {
        throw new Error(
          `fault proxy: carrier ${carrier} has no listener; start the proxy with every code of CARRIER_CODES`,
        );
      }
      const sim = new URL(simulatorUrl);
      route.target = new URL(sim.origin);
      // The simulator's base path (CDEK's /v2) stays in the adapter's URL and is forwarded as it comes.
      return `http://127.0.0.1:${route.port}${sim.pathname.replace(/\/+$/, '')}`;
    },
    plan(tag, carrier, fault) {
      let byCarrier = plans.get(tag);
      if (!byCarrier) plans.set(tag, (byCarrier = new Map()));
      byCarrier.set(carrier, fault);
    },
    forget(tag) {
      plans.delete(tag);
    },
    fronted: () => [...routes.values()].filter((r) => r.target !== null).map((r) => r.carrier),
    hits: (tag, carrier) => hitCounts.get(`${tag}|${carrier}`) ?? 0,
    stats: () => structuredClone(stats),
    openExchanges: () => open.size,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all(
        [...routes.values()].map(
          (r) =>
            new Promise<void>((resolve) => {
              r.server.close(() => resolve());
              r.server.closeAllConnections();
            }),
        ),
      );
      upstreamAgent.destroy();
    },
  };
}

interface Upstream {
  status: number;
  contentType: string;
  body: Buffer;
}

function sendUpstream(
  agent: Agent,
  target: URL,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const out: IncomingHttpHeaders = { ...headers, host: target.host };
    // The body was read whole: send it with its exact length whatever framing the adapter used.
    delete out['transfer-encoding'];
    delete out.connection;
    out['content-length'] = String(body.length);
    const req = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: out, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 502,
            contentType: String(res.headers['content-type'] ?? 'application/json'),
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function relay(res: ServerResponse, up: Upstream): void {
  res.writeHead(up.status, { 'content-type': up.contentType, 'content-length': up.body.length });
  res.end(up.body);
}

function failUpstream(res: ServerResponse): void {
  if (!res.headersSent && !res.destroyed) res.writeHead(502, { 'content-type': 'text/plain' }).end();
}

function answerRaw(res: ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

function answerStatus(
  res: ServerResponse,
  status: number,
  kind: 'json' | 'html' | 'empty',
  retryAfter: string | undefined,
): void {
  const extra: Record<string, string> = {
    ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
    ...(status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
  };
  if (kind === 'empty') {
    res.writeHead(status, { ...extra, 'content-length': 0 }).end();
    return;
  }
  const [type, text] =
    kind === 'html'
      ? ['text/html', HTML_PAGE]
      : ['application/json', JSON.stringify({ error: JSON_ERRORS[status] ?? 'unavailable' })];
  res.writeHead(status, { ...extra, 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Raw bytes on the socket: ServerResponse would always frame the body correctly, which is the point. */
function truncate(socket: Socket, up: Upstream, framing: 'content-length' | 'chunked' | 'eof'): void {
  const half = up.body.subarray(0, Math.floor(up.body.length / 2));
  const head = [`HTTP/1.1 ${up.status} X`, `content-type: ${up.contentType}`];
  if (framing === 'content-length') head.push(`content-length: ${up.body.length}`);
  if (framing === 'chunked') head.push('transfer-encoding: chunked');
  if (framing === 'eof') head.push('connection: close');
  const payload =
    framing === 'chunked'
      ? Buffer.concat([Buffer.from(`${half.length.toString(16)}\r\n`), half, Buffer.from('\r\n')])
      : half;
  socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), payload]), () => {
    // eof: a clean FIN makes the short body look complete; otherwise the connection just dies mid-body.
    if (framing === 'eof') socket.end();
    else socket.destroy();
  });
}

function malformedBody(real: Buffer, variant: 'cut' | 'html' | 'empty' | 'binary'): Buffer {
  switch (variant) {
    case 'cut':
      return real.subarray(0, Math.max(0, real.length - 1));
    case 'html':
      return Buffer.from(HTML_PAGE);
    case 'empty':
      return Buffer.alloc(0);
    case 'binary':
      // Not UTF-8 and not JSON: what a gzip body without its Content-Encoding would look like.
      return Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0xc3, 0x28, 0x7b, 0x7d]);
  }
}

function wrongShapeBody(real: Buffer, variant: 'null' | 'array' | 'scalar' | 'object' | 'renamed'): string {
  switch (variant) {
    case 'null':
      return 'null';
    case 'array':
      return '[]';
    case 'scalar':
      return '"OK"';
    case 'object':
      return JSON.stringify({ status: 'ok', result: { items: [] } });
    case 'renamed':
      return JSON.stringify(renameKeys(parseOr(real, {})));
  }
}

function renameKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [`x_${k}`, renameKeys(v)]));
  }
  return value;
}

/** Shared padding, so an oversized answer costs the proxy a few small buffers, not megabytes of JSON work. */
let padding: Buffer | null = null;
export const MAX_OVERSIZED_BYTES = 4 * 1024 * 1024;

/**
 * The real answer with a padding field, so the result is still a *valid* answer: only the size cap can
 * turn it into a failure, and a lost cap shows up as a rate where the suite expects a carrier error.
 */
function paddedJson(real: Buffer, bytes: number): Buffer[] {
  padding ??= Buffer.alloc(MAX_OVERSIZED_BYTES, 'x');
  const text = real.toString('utf8').trim();
  const parsed = parseOr(real, undefined);
  let prefix: string;
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const inner = text.slice(0, text.lastIndexOf('}'));
    prefix = `${inner}${Object.keys(parsed).length > 0 ? ',' : ''}"x_padding":"`;
  } else {
    prefix = `{"x_body":${parsed === undefined ? JSON.stringify(text) : text},"x_padding":"`;
  }
  return [Buffer.from(prefix), padding.subarray(0, Math.min(bytes, MAX_OVERSIZED_BYTES)), Buffer.from('"}')];
}

function parseOr(buf: Buffer, fallback: unknown): unknown {
  try {
    return JSON.parse(buf.toString('utf8'));
  } catch {
    return fallback;
  }
}

function safeDecode(prefix: string, body: Buffer): string {
  let url = prefix;
  try {
    url = decodeURIComponent(prefix);
  } catch {
    // a malformed escape: search the raw text
  }
  return url + body.toString('utf8');
}

function readAll(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_UPSTREAM_REQUEST_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size <= MAX_UPSTREAM_REQUEST_BYTES ? Buffer.concat(chunks) : null));
    req.on('error', () => resolve(null));
  });
}
