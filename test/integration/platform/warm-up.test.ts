// The first quote after start (#17 item 3): the service's warm-up (core/platform/warm-up.ts) makes it as fast
// as a warm one, writes nothing a clerk or an admin would see, and in live mode calls no carrier that has no
// credentials (nor any carrier for a price). Timing is relative to a warm quote of the same service, measured
// in the same test, with room for a loaded machine: without the warm-up the first row comes 300–500 ms after a
// warm quote's, which no bound here lets through.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_CODES } from '../../../core/carriers/types';
import { createRatingService } from '../../../core/service';
import type { SqliteStore } from '../../../core/store';
import { SHIPMENT, startDesk, type DeskHarness } from '../desk/harness';

let desk: DeskHarness | undefined;
let server: Server | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

interface Timing {
  firstRowMs: number;
  lastCarrierMs: number;
}

let weight = 1000;
/** One desk quote of SHIPMENT's route with a weight never asked before (no rate cache hit). */
async function timedQuote(d: DeskHarness): Promise<Timing> {
  const quoteKey = `warm-up-test-${weight}`;
  const t0 = performance.now();
  let first = 0;
  let last = 0;
  const off = d.service.desk.subscribe((event, payload) => {
    if (event !== 'quote:progress') return;
    const p = payload as { quoteKey: string; progress: { state: string } };
    if (p.quoteKey !== quoteKey || p.progress.state === 'waiting') return;
    last = performance.now() - t0;
    first ||= last;
  });
  const r = await d.ok('quote:run', {
    quoteKey,
    shipment: { ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: weight++ } },
  });
  off();
  expect(r.rates.length).toBeGreaterThan(0);
  return { firstRowMs: first, lastCarrierMs: last };
}

/** The service's own SQLite connection (the implementation's handle, not on the store port). */
const dbOf = (store: DeskHarness['service']['store']): SqliteStore['db'] => (store as SqliteStore).db;

const counts = (d: DeskHarness): Record<string, number> =>
  Object.fromEntries(
    ['quotes', 'ledger', 'accounts', 'notifications', 'carrier_health', 'idempotency'].map((table) => [
      table,
      (dbOf(d.service.store).prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
    ]),
  );

describe('warm-up after start, sandbox mode', () => {
  it('the first desk quote after the warm-up comes as fast as a warm one', async () => {
    desk = await startDesk();
    const report = await desk.service.warmedUp;
    expect(report).toMatchObject({ mode: 'sandbox', stopped: null });
    expect(report!.phases.map((p) => p.phase)).toEqual(['code', 'directories', 'quote']);

    // The warm-up quoted Москва → Санкт-Петербург (no history yet); this is Москва → Казань.
    const first = await timedQuote(desk);
    const warm = [await timedQuote(desk), await timedQuote(desk), await timedQuote(desk)].sort(
      (a, b) => a.lastCarrierMs - b.lastCarrierMs,
    )[1]!;
    const note = `first ${JSON.stringify(first)}, warm ${JSON.stringify(warm)}`;
    expect(first.firstRowMs, note).toBeLessThanOrEqual(Math.max(2 * warm.firstRowMs, warm.firstRowMs + 150));
    // Казань's own lookups (its pickup points, city codes) are the first quote's alone: more room.
    expect(first.lastCarrierMs, note).toBeLessThanOrEqual(
      Math.max(3 * warm.lastCarrierMs, warm.lastCarrierMs + 400),
    );
  });

  it('writes nothing: no history, no balance or ledger change, no carrier status, no desk event', async () => {
    desk = await startDesk();
    const before = counts(desk);
    const balances = dbOf(desk.service.store).prepare('SELECT name, balance FROM accounts').all();
    await desk.service.warmedUp;
    expect(counts(desk)).toEqual(before);
    expect(dbOf(desk.service.store).prepare('SELECT name, balance FROM accounts').all()).toEqual(balances);
    expect(desk.events).toEqual([]);
    expect((await desk.service.carrierHealth()).every((h) => h.status === 'unknown')).toBe(true);
    expect(desk.service.rateCacheStats()).toMatchObject({ hits: 0, misses: 0 });
  });

  it('a desk quote during the warm-up stops it and is answered in full', async () => {
    desk = await startDesk();
    const quoted = desk.ok('quote:run', { quoteKey: 'during', shipment: SHIPMENT });
    const report = await desk.service.warmedUp;
    expect(report!.stopped).toBe('quote');
    const r = await quoted;
    expect(new Set(r.rates.map((x) => x.carrier)).size + r.failures.length).toBe(CARRIER_CODES.length);
    expect(r.failures).toEqual([]);
    expect(counts(desk).quotes).toBe(1);
  });

  it('a quote of CDEK alone during the directories leaves no failure behind for Boxberry or 5Post', async () => {
    desk = await startDesk();
    // About when the warm-up is downloading Boxberry's city list and 5Post's catalogue: those downloads, only
    // the warm-up's, are dropped (the CDEK quote does not need them), and nothing is remembered as failed.
    await new Promise((r) => setTimeout(r, 100));
    const alone = await desk.ok('quote:run', {
      quoteKey: 'cdek-alone',
      shipment: { ...SHIPMENT, carriers: ['cdek'] },
    });
    expect(alone.failures).toEqual([]);
    expect((await desk.service.warmedUp)!.stopped).toBe('quote');
    const all = await desk.ok('quote:run', { quoteKey: 'all', shipment: SHIPMENT });
    expect(all.failures).toEqual([]);
    expect(new Set(all.rates.map((r) => r.carrier))).toEqual(new Set(CARRIER_CODES));
  });

  it("warms the route of the desk's last quote after a restart", async () => {
    desk = await startDesk();
    await desk.service.warmedUp;
    await desk.ok('quote:run', {
      quoteKey: 'from-tula',
      shipment: { ...SHIPMENT, from: { city: 'Тула', postal_code: '300000' } },
    });
    const tulaRows = (db: SqliteStore['db']): number =>
      (
        db.prepare("SELECT COUNT(*) AS n FROM location_cache WHERE place_key LIKE 'тула|%'").get() as {
          n: number;
        }
      ).n;
    const before = tulaRows(dbOf(desk.service.store));
    expect(before).toBeGreaterThan(0);
    await desk.service.close();
    const again = await createRatingService({ dataDir: desk.dir, listen: false });
    try {
      const report = await again.warmedUp;
      expect(report!.phases.map((p) => p.phase)).toEqual(['code', 'directories', 'quote']);
      // The simulators listen on new ports after a restart, and a directory's answers are kept per host: the
      // warm-up asked them about Тула again (the default route would not have).
      expect(tulaRows(dbOf(again.store))).toBeGreaterThan(before);
    } finally {
      await again.close();
    }
  });
});

describe('warm-up after start, live mode', () => {
  it('asks no carrier without credentials, none for a price, and 5Post not for its catalogue', async () => {
    const seen: string[] = [];
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const settings: Record<string, string> = { sandbox: 'off' };
    for (const code of CARRIER_CODES) {
      settings[`carriers.${code}.enabled`] = 'on';
      settings[`carriers.${code}.endpoint`] = 'custom';
      settings[`carriers.${code}.base_url`] = `${base}/${code}`;
    }
    // Two carriers with credentials: Boxberry's city list is fetched ahead (one GET, kept a day); 5Post's
    // catalogue is not (55 MB under 5Post's download windows). The others have none and are not asked.
    settings['carriers.boxberry.token'] = 'bb-token';
    settings['carriers.5post.apikey'] = 'fp-key';
    desk = await startDesk(settings);
    const report = await desk.service.warmedUp;
    expect(report).toMatchObject({ mode: 'live', stopped: null });
    expect(report!.phases.map((p) => p.phase)).toEqual(['code', 'directories']);
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) expect(request).toMatch(/^GET \/boxberry\b.*method=ListCities/);
    expect(counts(desk).quotes).toBe(0);
    expect(desk.events).toEqual([]);
  });
});
