// The server side of a benchmark, in its own process so client and server do not share one event loop.
// Prints one JSON line `{port, keys}` on stdout once listening; exits on SIGTERM.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, setLimits } from '../../core/admin/accounts';
import { createKey } from '../../core/admin/keys';
import { setSetting } from '../../core/admin/settings';
import { openDataFolder } from '../../core/admin/data-folder';
import type { CarrierAdapter } from '../../core/carriers/types';
import { createRatingService } from '../../core/service';

const mode = process.argv[2] ?? 'baseline';
const arg = process.argv[3] ?? '';

/** Answers at once with one fixed rate: isolates the listener and bookkeeping from carrier HTTP. */
const instantCarrier: CarrierAdapter = {
  code: 'instant',
  name: 'Instant (benchmark)',
  quote: async () => ({
    ok: true,
    rates: [
      {
        carrier: 'instant',
        carrier_name: 'Instant (benchmark)',
        service_code: 'instant:1',
        service_name: 'Benchmark',
        delivery_type: 'door',
        price_kopecks: 12345,
        currency: 'RUB',
        days_min: 1,
        days_max: 2,
        price_type: 'public',
      },
    ],
  }),
};

async function main(): Promise<void> {
  if (mode === 'baseline') {
    const body = JSON.stringify({ balance: 12345 });
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      process.stdout.write(
        `${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, keys: [] })}\n`,
      );
    });
    process.once('SIGTERM', () => server.close(() => process.exit(0)));
    return;
  }

  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-bench-'));
  // An account may be allowed at most 10 000 req/s, so the balance run spreads its load over 8 accounts
  // (keys rotate per request: no connection sends the same key twice in a row, the least favourable case).
  const accounts = mode === 'bookkeeping' || mode === 'bookkeeping-single' ? 200 : mode === 'balance' ? 8 : 1;
  const store = openDataFolder(dir);
  const clock = { now: () => new Date() };
  const keys: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const name = i === 0 ? 'default' : `acct${i}`;
    if (i > 0) createAccount(store, clock, { name, balance: 100_000_000 });
    else store.accounts.topup(store.accounts.byName('default')!.id, 100_000_000, clock.now().toISOString());
    setLimits(store, clock, { account: name, rps: 10_000, burst: 100_000 });
    keys.push(createKey(store, clock, { account: name, name: 'bench' }).secret);
  }
  if (mode === 'rates-remote') {
    // Live mode against the simulators' process (scripts/bench/simulators.ts), as against real carriers.
    const urls = JSON.parse(arg) as { russianPost: string; cdek: string };
    for (const [name, value] of [
      ['sandbox', 'off'],
      ['carriers.russian-post.base_url', urls.russianPost],
      ['carriers.cdek.base_url', urls.cdek],
      ['carriers.cdek.client_id', 'bench'],
      ['carriers.cdek.client_secret', 'bench-secret'],
    ] as const) {
      setSetting(store, clock, { name, value });
    }
  }
  store.close();

  const service = await createRatingService({
    dataDir: dir,
    listen: { host: '127.0.0.1', port: 0 },
    ...(mode === 'rates' ? { simulatorLatencyMs: Number(arg || 20) } : {}),
    ...(mode.startsWith('bookkeeping') ? { adapters: [instantCarrier] } : {}),
    ...(mode === 'bookkeeping-single' ? { groupCommit: false } : {}),
  });
  process.stdout.write(`${JSON.stringify({ port: service.listener!.port, keys })}\n`);
  process.once('SIGTERM', () => {
    const { batches, ops } = service.committer.stats;
    process.stderr.write(`${JSON.stringify({ batches, ops })}\n`);
    void service.close().then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

void main();
