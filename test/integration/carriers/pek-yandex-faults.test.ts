// PEK and Yandex behind the chaos suite's fault proxy (test/helpers/fault-proxy.ts): every calculator call carries
// the parcel weight the proxy tags requests by (grams for Yandex, exact kilograms for PEK), and every broken
// answer — hang, reset, truncated, malformed, wrong shape, 5xx, 429, oversized — ends as an `unavailable` reason,
// never a 500 and never rates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_CODES } from '../../../core/carriers/types';
import { startFaultProxy, type Fault, type FaultProxy } from '../../helpers/fault-proxy';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

const FAULTS: Fault[] = [
  { kind: 'hang' },
  { kind: 'reset' },
  { kind: 'truncated', framing: 'content-length' },
  { kind: 'truncated', framing: 'eof' },
  { kind: 'malformed', variant: 'cut' },
  { kind: 'malformed', variant: 'html' },
  { kind: 'malformed', variant: 'empty' },
  { kind: 'wrong_shape', variant: 'null' },
  { kind: 'wrong_shape', variant: 'array' },
  { kind: 'wrong_shape', variant: 'scalar' },
  { kind: 'wrong_shape', variant: 'object' },
  { kind: 'wrong_shape', variant: 'renamed' },
  { kind: 'http_status', status: 500, body: 'html' },
  { kind: 'http_status', status: 503, body: 'json' },
  { kind: 'http_status', status: 429, body: 'empty' },
  { kind: 'oversized', framing: 'chunked', bytes: 2 * 1024 * 1024 },
];

for (const carrier of ['pek', 'yandex'] as const) {
  describe(`${carrier} behind the fault proxy`, () => {
    let t: TestService;
    let proxy: FaultProxy;
    let tag = 2401;
    beforeAll(async () => {
      // Every code: the registry fronts every enabled carrier, CDEK and Russian Post included.
      proxy = await startFaultProxy(CARRIER_CODES);
      t = await startTestService({
        // Long enough for a clean quote on a cold, busy host (Yandex's first one took over 800 ms in CI beside
        // another test file); the hang fault waits it out once per carrier.
        settings: { [`carriers.${carrier}.enabled`]: 'on', 'rating.carrier_timeout_ms': '3000' },
        sandboxFront: proxy.front,
      });
    });
    afterAll(async () => {
      await t.close();
      await proxy.close();
    });

    async function quote(fault: Fault) {
      const mine = tag++;
      proxy.plan(mine, carrier, fault);
      const r = await t.postRates({
        ...SHIPMENT,
        parcel: { ...SHIPMENT.parcel, weight_grams: mine },
        carriers: [carrier],
      });
      const hits = proxy.hits(mine, carrier);
      proxy.forget(mine);
      return { r, hits };
    }

    it('a clean quote: rates, and the calculator calls carry the tag', async () => {
      const { r, hits } = await quote({ kind: 'none' });
      expect(r.status).toBe(200);
      expect(r.json.rates.length).toBeGreaterThan(0);
      expect(hits).toBeGreaterThan(0);
      expect(proxy.stats()[carrier]!.ambiguous).toBe(0);
    });

    it.each(FAULTS.map((f) => [`${f.kind} ${JSON.stringify(f)}`, f] as const))(
      '%s → an unavailable reason, never a 500',
      async (_name, fault) => {
        const { r, hits } = await quote(fault);
        expect(hits).toBeGreaterThan(0);
        expect(r.status).not.toBe(500);
        expect(r.json.rates ?? []).toEqual([]);
        expect(r.json.unavailable).toHaveLength(1);
        expect(r.json.unavailable[0].carrier).toBe(carrier);
        expect(r.json.unavailable[0].reason).toMatch(/^(timeout|carrier error: .+)$/);
        // A clean quote in between keeps the breaker closed (an answer resets its count).
        const clean = await quote({ kind: 'none' });
        expect(clean.r.status).toBe(200);
      },
    );
  });
}
