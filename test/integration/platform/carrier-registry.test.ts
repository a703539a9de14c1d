// Live mode per carrier (#10 item 1): the endpoint chooses where each carrier is asked, a carrier pointed at
// its simulator marks every answer sandbox, and a carrier's own timeout bounds only that carrier.
import { afterEach, expect, it } from 'vitest';
import { CARRIER_TRIGGERS } from '../../../core/carriers/sandbox-triggers';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('live mode with a carrier on its simulator: it answers, and the response says sandbox', async () => {
  t = await startTestService({
    settings: {
      sandbox: 'off',
      'carriers.cdek.endpoint': 'simulator',
      'carriers.russian-post.enabled': 'off',
    },
  });
  const r = await t.postRates(SHIPMENT);
  expect(r.status).toBe(200);
  expect(r.json.rates.length).toBeGreaterThan(0);
  expect(r.json.rates.every((x: { carrier: string }) => x.carrier === 'cdek')).toBe(true);
  expect(r.headers['x-ratedesk-sandbox']).toBe('true');
});

it("a carrier's own timeout bounds that carrier only", async () => {
  t = await startTestService({
    settings: {
      'rating.carrier_timeout_ms': '5000',
      'rating.deadline_ms': '8000',
      'carriers.cdek.timeout_ms': '400',
    },
  });
  const started = performance.now();
  const r = await t.postRates({
    ...SHIPMENT,
    to: { city: 'Казань', postal_code: CARRIER_TRIGGERS.cdek.timeout },
  });
  const took = performance.now() - started;
  expect(r.status).toBe(200);
  expect(r.json.unavailable).toEqual([{ carrier: 'cdek', reason: 'timeout' }]);
  expect(took).toBeGreaterThanOrEqual(390);
  expect(took).toBeLessThan(2_500);
});

it('live mode with every carrier on its production host is not marked sandbox', async () => {
  t = await startTestService({
    settings: { sandbox: 'off', 'carriers.cdek.enabled': 'off', 'carriers.russian-post.enabled': 'off' },
  });
  const r = await t.get('/v1/balance');
  expect(r.headers['x-ratedesk-sandbox']).toBeUndefined();
});
