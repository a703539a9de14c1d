import { it } from 'vitest';
import { startTestService } from '../helpers/service';
import type { CarrierAdapter } from '../../core/carriers/types';
const a: CarrierAdapter = { code: 'alpha', name: 'A', quote: async (r) => ({ ok: true, rates: [{ carrier: 'alpha', carrier_name: 'A', service_code: 'alpha:1', service_name: 'x', delivery_type: 'door', price_kopecks: r.parcel.weight_grams, currency: 'RUB', days_min: 1, days_max: 2, price_type: 'public' }] }) };
it('probe', async () => {
  let t0 = performance.now();
  for (let i = 0; i < 10; i++) {
    const t = await startTestService({ adapters: [a], tierLimits: false });
    await t.close();
  }
  console.log('start+close ms', (performance.now() - t0) / 10);
  const t = await startTestService({ adapters: [a] });
  t0 = performance.now();
  for (let i = 0; i < 50; i++) { const r = await t.postRates({ from: { city: 'A' }, to: { city: 'B' }, parcel: { weight_grams: 100, length_cm: 1, width_cm: 1, height_cm: 1 } }); if (r.status !== 200) console.log(r.status, r.text); }
  console.log('charge ms', (performance.now() - t0) / 50);
  t0 = performance.now();
  for (let i = 0; i < 200; i++) await t.get('/v1/balance');
  console.log('balance ms', (performance.now() - t0) / 200);
  await t.close();
});
