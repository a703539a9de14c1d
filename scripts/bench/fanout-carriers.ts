// Eight carriers for the fan-out scenario, each answering at its own fixed latency: in-process adapters (a
// timer, then two rates), or HTTP ones that ask a bare carrier server of their own (one origin each, in a
// process of its own: `node --import tsx scripts/bench/fanout-carriers.ts 6,8,…` prints {urls}).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { carrierRequest } from '../../core/carriers/http';
import type { CarrierAdapter, CarrierOutcome } from '../../core/carriers/types';
import type { Rate } from '../../core/contract/v1';

/** The latencies of the eight carriers, in ms: spread out, the slowest at the other scenarios' 20 ms. */
export const FANOUT_LATENCIES_MS = [6, 8, 10, 12, 14, 16, 18, 20];

function ratesOf(code: string, weightGrams: number): Rate[] {
  return [1, 2].map((n) => ({
    carrier: code,
    carrier_name: `Перевозчик ${code}`,
    service_code: `${code}:${n}`,
    service_name: n === 1 ? 'Посылка' : 'Экспресс',
    delivery_type: n === 1 ? 'pickup_point' : 'door',
    price_kopecks: 10_000 * n + weightGrams,
    currency: 'RUB',
    days_min: n,
    days_max: n + 2,
    price_type: 'public',
  }));
}

/** A timer, then two rates: the fan-out machinery (aggregator, service, charge) without carrier HTTP. */
export function inProcessCarriers(latencies: readonly number[]): CarrierAdapter[] {
  return latencies.map((ms, i) => {
    const code = `bench-${i + 1}`;
    return {
      code,
      name: `Перевозчик ${code}`,
      quote: (request, { signal }): Promise<CarrierOutcome> =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(
            () => resolve({ ok: true, rates: ratesOf(code, request.parcel.weight_grams) }),
            ms,
          );
          const onAbort = (): void => {
            clearTimeout(timer);
            reject(signal.reason);
          };
          signal.addEventListener('abort', onAbort, { once: true });
        }),
    };
  });
}

/** One GET per quote to the carrier's own server, through the carrier HTTP client (one pool per origin). */
export function httpCarriers(urls: readonly string[]): CarrierAdapter[] {
  return urls.map((url, i) => {
    const code = `bench-${i + 1}`;
    return {
      code,
      name: `Перевозчик ${code}`,
      async quote(request, { signal }): Promise<CarrierOutcome> {
        const res = await carrierRequest(`${url}/rate?weight=${request.parcel.weight_grams}`, {
          method: 'GET',
          signal,
        });
        if (res.status !== 200) return { ok: false, kind: 'carrier_error', detail: `HTTP ${res.status}` };
        return { ok: true, rates: ratesOf(code, request.parcel.weight_grams) };
      },
    };
  });
}

async function serve(latencies: readonly number[]): Promise<void> {
  const body = '{"ok":true}';
  const urls = await Promise.all(
    latencies.map(
      (ms) =>
        new Promise<string>((resolve) => {
          const server = createServer((req, res) => {
            req.resume();
            setTimeout(() => {
              res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
              res.end(body);
            }, ms);
          });
          server.listen(0, '127.0.0.1', () =>
            resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
          );
        }),
    ),
  );
  process.stdout.write(`${JSON.stringify({ urls })}\n`);
  process.once('SIGTERM', () => process.exit(0));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void serve((process.argv[2] ?? FANOUT_LATENCIES_MS.join(',')).split(',').map(Number));
}
