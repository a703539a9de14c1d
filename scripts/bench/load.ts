// A small closed-loop HTTP load generator on node:http with keep-alive: `connections` virtual users each
// send the next request as soon as the previous answer arrived. Bounded by time and by count, and only
// ever aimed at 127.0.0.1.
import { Agent, request } from 'node:http';

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  /** Headers for request number i (lets a run rotate keys across accounts). */
  headers: (i: number) => Record<string, string>;
  /** A fixed body, or the body of request number i (the rates runs vary the shipment past the rate cache). */
  body?: string | ((i: number) => string);
  connections: number;
  durationMs: number;
  maxRequests?: number;
  warmupMs?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const bodyOf = (i: number): string | undefined =>
    typeof spec.body === 'function' ? spec.body(i) : spec.body;
  const send = (i: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const body = bodyOf(i);
      const req = request(
        {
          host: '127.0.0.1',
          port: spec.port,
          method: spec.method,
          path: spec.path,
          agent,
          headers: {
            ...spec.headers(i),
            ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      if (body) req.write(body);
      req.end();
    });

  // Warm-up (JIT, connections, caches); not measured.
  const warmEnd = performance.now() + (spec.warmupMs ?? 500);
  let counter = 0;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (performance.now() < warmEnd) await send(counter++);
    }),
  );

  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const max = spec.maxRequests ?? 1_000_000;
  const start = performance.now();
  const end = start + spec.durationMs;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      while (performance.now() < end && latencies.length < max) {
        const t0 = performance.now();
        const status = await send(counter++);
        latencies.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    statuses,
  };
}
