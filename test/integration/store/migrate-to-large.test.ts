// migrate-to on a desk of a working size (#19 item 5's figure): 10,000 answered rates calls (each a charge, a
// history row with its whole result, and a stored reply) and a rate card of 100,000 rows. The figures are
// printed (docs/operations.md quotes them); the bound is only a generous one, as the machine's speed varies.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { IDEMPOTENCY_RETENTION_MS } from '../../../core/api/idempotency';
import { openDataFolder } from '../../../core/store/data-folder';
import { migrateDeskTo } from '../../../core/store/migrate-to';
import { cardRows } from '../../helpers/desk-builder';
import { createTestDatabase, dropTestDatabase } from '../../helpers/postgres';

const QUOTES = 10_000;
const CARD_ROWS = 100_000;

const root = mkdtempSync(join(tmpdir(), 'ratedesk-migrate-large-'));
const databases: string[] = [];
afterAll(async () => {
  for (const url of databases) await dropTestDatabase(url).catch(() => {});
  rmSync(root, { recursive: true, force: true });
});

/** A result as /v1/rates answers it for eight carriers: about 2.5 kB of JSON, as real history rows are. */
function resultJson(i: number): string {
  const quotes = Array.from({ length: 8 }, (_, c) => ({
    carrier: `carrier-${c}`,
    service: `Тариф ${c}`,
    delivery_type: c % 2 === 0 ? 'door' : 'pickup_point',
    price: { amount_kopecks: 30_000 + i + c * 100, currency: 'RUB' },
    transit_days: { min: 1 + c, max: 3 + c },
    notes: ['Срок указан без учёта дня отправки', 'Цена с НДС'],
  }));
  return JSON.stringify({ request_id: `req-${i}`, sandbox: true, quotes, unavailable: [] });
}

it('moves 10,000 charged quotes and a rate card of 100,000 rows, and prints how long it took', async () => {
  const dir = join(root, 'desk');
  const store = openDataFolder(dir);
  const built = performance.now();
  try {
    const account = await store.accounts.create('shop', QUOTES + 500, new Date().toISOString());
    const now = Date.now();
    const r = store.repos;
    store.db.transaction(() => {
      for (let i = 0; i < QUOTES; i++) {
        const at = new Date(now - (QUOTES - i) * 1000).toISOString();
        const requestId = `req-${i}`;
        r.accounts.debitInTx(account.id, requestId, at);
        const body = resultJson(i);
        r.quotes.insert({
          request_id: requestId,
          source: 'api',
          created_at: at,
          from_city: 'Москва',
          to_city: `Город ${i % 500}`,
          weight_grams: 500 + (i % 20) * 100,
          cheapest_kopecks: 30_000 + i,
          carriers: 'cdek,russian-post,boxberry,dpd,pek,yandex,dellin,fivepost',
          sandbox: 1,
          shipment_json: JSON.stringify({ from: { city: 'Москва' }, to: { city: `Город ${i % 500}` } }),
          result_json: body,
          author: null,
          warehouse: null,
        });
        r.idempotency.insertInTx({
          account_id: account.id,
          idem_key: `order-${i}`,
          fingerprint: `fp-${i}`,
          status: 200,
          body,
          request_id: requestId,
          created_at_ms: now - (QUOTES - i) * 1000,
        });
      }
    })();
    await store.rateCards.replace(
      { code: 'big', name: 'Большая карта', volumetric_divisor: 5000, created_at: new Date().toISOString() },
      cardRows(CARD_ROWS),
    );
  } finally {
    await store.close();
  }
  const buildMs = performance.now() - built;

  const url = await createTestDatabase('large');
  databases.push(url);
  const report = await migrateDeskTo({ dataDir: dir, url, idempotencyRetentionMs: IDEMPOTENCY_RETENTION_MS });
  expect(report.company).toEqual(report.desk);
  expect(report.desk.rows).toMatchObject({
    quotes: QUOTES,
    idempotency: QUOTES,
    ledger: QUOTES + 2, // two opening rows (default, shop) and one per charge
    rate_card_rows: CARD_ROWS,
  });
  expect(report.company.accounts.find((a) => a.name === 'shop')).toMatchObject({
    balance: 500,
    ledger_sum: 500,
  });
  const rows = Object.values(report.desk.rows).reduce((a, b) => a + b, 0);
  console.log(
    `migrate-to: ${rows} rows (${QUOTES} quotes, ${QUOTES} stored replies, ${CARD_ROWS} rate-card rows) in ` +
      `${(report.elapsedMs / 1000).toFixed(2)} s, ${Math.round(rows / (report.elapsedMs / 1000))} rows/s; ` +
      `building the desk took ${(buildMs / 1000).toFixed(2)} s (load average ${loadavg()[0]!.toFixed(1)})`,
  );
  // Generous: a few seconds here; a minute would mean something is wrong (a statement per row, say).
  expect(report.elapsedMs).toBeLessThan(60_000);
}, 180_000);
