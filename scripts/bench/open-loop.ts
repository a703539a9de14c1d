// An open-loop HTTP client: requests leave at a fixed rate whether or not earlier ones have been answered, as
// independent callers would send them, and each latency is measured from the moment its request was due.
// A closed-loop client waits for each answer before the next request, so a slow answer also delays the
// requests behind it and hides itself from the percentiles (coordinated omission); this one does not.
// Only ever aimed at 127.0.0.1.
import { Agent, request } from 'node:http';

export interface OpenLoopSpec {
  port: number;
  /** Several instances behind no balancer: request i goes to ports[i % length] (port is then ignored). */
  ports?: readonly number[];
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** The body of request number i (a fan-out run varies the shipment so the rate cache never answers). */
  body?: (i: number) => string;
  ratePerSecond: number;
  durationMs: number;
  warmupMs: number;
}

export interface OpenLoopResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  /** How late, at worst, a request left against its schedule (the client's own noise). */
  maxSendLagMs: number;
}

export async function runOpenLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
  // Enough sockets that no request ever waits for one: at 100 req/s and tens of ms each, a few are in use.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const intervalMs = 1000 / spec.ratePerSecond;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let maxSendLagMs = 0;

  const send = (i: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const body = spec.body?.(i);
      const req = request(
        {
          host: '127.0.0.1',
          port: spec.ports ? spec.ports[i % spec.ports.length]! : spec.port,
          method: spec.method,
          path: spec.path,
          agent,
          headers: {
            ...spec.headers,
            ...(body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });

  let counter = 0;
  const phase = async (ms: number, measured: boolean): Promise<void> => {
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let n = 0; ; n++) {
      const due = start + n * intervalMs;
      if (due - start >= ms) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const sentAt = performance.now();
      const lag = sentAt - due;
      // A timer may fire up to a millisecond early (libuv counts whole milliseconds): a request sent early
      // is timed from when it left, a late one from when it was due.
      const from = Math.min(due, sentAt);
      const i = counter++;
      inFlight.push(
        // A reset connection is a result too (status "0"), not the end of the run.
        send(i)
          .catch(() => 0)
          .then((status) => {
            if (!measured) return;
            latencies.push(performance.now() - from);
            statuses[status] = (statuses[status] ?? 0) + 1;
            maxSendLagMs = Math.max(maxSendLagMs, lag);
          }),
      );
    }
    await Promise.all(inFlight);
  };
  await phase(spec.warmupMs, false);
  await phase(spec.durationMs, true);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const q = (p: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    statuses,
    maxSendLagMs,
  };
}
