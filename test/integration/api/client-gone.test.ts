// #8 defect 2: a client that disconnects before its charge commits is charged nothing, and its carrier calls
// stop. It used to be charged for an answer it never received (curl --max-time 1 on a slow carrier).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawExchange } from '../../helpers/raw-http';
import type { SqliteStore } from '../../../core/store';
import { SHIPMENT, startTestService, type TestService } from '../../helpers/service';

let t: TestService;
beforeAll(async () => {
  // Carriers answer after 800 ms; the client gives up after 150 ms. No rate cache: it would answer the
  // warm-up's shipment at once, and no client could leave before the answer.
  t = await startTestService({ simulatorLatencyMs: 800, settings: { 'rating.cache_ttl_ms': '0' } });
  // Warm up: CDEK's first quote also fetches an OAuth token (a second 800 ms round trip).
  expect((await t.postRates(SHIPMENT)).status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

function ledgerRows(): number {
  return (
    (t.service.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM ledger').get() as { n: number }
  ).n;
}
function historyRows(): number {
  return (
    (t.service.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM quotes').get() as { n: number }
  ).n;
}

function abandonedRequest(idempotencyKey?: string): Promise<unknown> {
  const body = JSON.stringify(SHIPMENT);
  return rawExchange(
    t.port,
    `POST /v1/rates HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nAuthorization: Bearer ${t.key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      (idempotencyKey ? `Idempotency-Key: ${idempotencyKey}\r\n` : '') +
      `\r\n${body}`,
    { waitMs: 150 },
  );
}

it('a client gone before the answer is charged nothing and leaves no history', async () => {
  const balance = (await t.get('/v1/balance')).json.balance;
  const ledger = ledgerRows();
  const history = historyRows();
  await abandonedRequest();
  // Past the carriers' 800 ms: a charge, had there been one, would be committed by now.
  await new Promise((r) => setTimeout(r, 1_500));
  expect((await t.get('/v1/balance')).json.balance).toBe(balance);
  expect(ledgerRows()).toBe(ledger);
  expect(historyRows()).toBe(history);
  expect(t.service.health.get('cdek').consecutiveFailures).toBe(0);
  expect(t.service.health.get('russian-post').consecutiveFailures).toBe(0);
});

it('its carrier calls stop at once: a retry with the same key is not "in use", runs once and is charged once', async () => {
  const balance = (await t.get('/v1/balance')).json.balance;
  const key = `gone-${Date.now()}`;
  await abandonedRequest(key);
  // Well before the abandoned request's carriers would have answered (800 ms).
  await new Promise((r) => setTimeout(r, 50));
  const retry = await t.postRates(SHIPMENT, { 'Idempotency-Key': key });
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replayed']).toBeUndefined();
  expect(retry.json.balance_remaining).toBe(balance - 1);
  const replay = await t.postRates(SHIPMENT, { 'Idempotency-Key': key });
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.text).toBe(retry.text);
  await new Promise((r) => setTimeout(r, 1_000));
  expect((await t.get('/v1/balance')).json.balance).toBe(balance - 1);
});

it('a client that stays gets its answer and is charged once', async () => {
  const balance = (await t.get('/v1/balance')).json.balance;
  const r = await t.postRates(SHIPMENT);
  expect(r.status).toBe(200);
  expect(r.json.balance_remaining).toBe(balance - 1);
});
