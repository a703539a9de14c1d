// Baseline for the rates latency: both carrier adapters called directly (no listener, no auth, no bookkeeping)
// against the same simulators at the same latency, one call at a time. Args: the simulators' URLs as JSON
// ({russianPost, cdek}) and a duration in ms. Prints one JSON line {p50Ms, p99Ms, calls}.
import { createCdekAdapter } from '../../core/carriers/cdek';
import { createRussianPostAdapter } from '../../core/carriers/russian-post';
import { BENCH_CDEK } from './simulators';
import { makeQuoteRequest } from '../../core/carriers/quote-request';

const urls = JSON.parse(process.argv[2] ?? '{}') as { russianPost: string; cdek: string };
const durationMs = Number(process.argv[3] ?? 5000);
const adapters = [
  createRussianPostAdapter({ baseUrl: urls.russianPost }),
  createCdekAdapter({ baseUrl: urls.cdek, clientId: BENCH_CDEK.id, clientSecret: BENCH_CDEK.secret }),
];
const request = {
  from: { city: 'Москва', postalCode: '101000' },
  to: { city: 'Казань', postalCode: '420000' },
  parcel: { weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 },
  declaredValueKopecks: 0,
};
// A new weight per call, as the service scenario sends (its rate cache would answer a repeated shipment), so
// the simulators do the same work for both.
let calls = 0;
const once = (): Promise<unknown> => {
  const r = makeQuoteRequest({
    ...request,
    parcel: { ...request.parcel, weight_grams: 1_000 + (calls++ % 60_000) },
  });
  return Promise.all(adapters.map((a) => a.quote(r, { signal: AbortSignal.timeout(5000) })));
};
const warmEnd = performance.now() + 500;
while (performance.now() < warmEnd) await once();
const times: number[] = [];
const end = performance.now() + durationMs;
while (performance.now() < end) {
  const t0 = performance.now();
  await once();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const q = (p: number): number => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
process.stdout.write(`${JSON.stringify({ p50Ms: q(0.5), p99Ms: q(0.99), calls: times.length })}\n`);
process.exit(0);
