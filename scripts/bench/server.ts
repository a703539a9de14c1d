// The server side of a benchmark, in its own process so client and server do not share one event loop.
// Prints one JSON line `{port, keys}` on stdout once listening; exits on SIGTERM.
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, setLimits } from '../../core/operations';
import { createKey } from '../../core/operations';
import { setSetting } from '../../core/operations';
import type { SqliteStore } from '../../core/store';
import { openDataFolder } from '../../core/store/data-folder';
import type { CarrierCode } from '../../core/carriers/types';
import { createRatingService } from '../../core/service';
import { httpCarriers, inProcessCarriers } from './fanout-carriers';
import { instantCarrier } from './instant-carrier';

const mode = process.argv[2] ?? 'baseline';
const arg = process.argv[3] ?? '';

async function main(): Promise<void> {
  if (mode === 'baseline' || mode === 'delayed') {
    // `delayed`: the same bare server answering after a timer, for the machine's own cost of a round trip
    // to a process that sat idle that long (the floor under every figure of the rates-latency scenario).
    const delayMs = mode === 'delayed' ? Number(arg || 20) : 0;
    const answer = smallJson({ balance: 12345 });
    bareServer((req, res) => {
      req.resume();
      if (delayMs > 0) setTimeout(answer, delayMs, res);
      else answer(res);
    });
    return;
  }

  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-bench-'));
  if (mode === 'fsync-reference') return fsyncReference(dir);
  // An account may be allowed at most 10 000 req/s, so the balance run spreads its load over 8 accounts
  // (keys rotate per request: no connection sends the same key twice in a row, the least favourable case).
  const accounts =
    mode === 'bookkeeping' || mode === 'bookkeeping-single'
      ? 200
      : mode === 'balance'
        ? 8
        : mode === 'cache-sharing'
          ? 3
          : 1;
  const store = openDataFolder(dir);
  const clock = { now: () => new Date() };
  const keys: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const name = i === 0 ? 'default' : `acct${i}`;
    if (i > 0) await createAccount(store, clock, { name, balance: 100_000_000 });
    else
      await store.accounts.topup(
        (await store.accounts.byName('default'))!.id,
        100_000_000,
        clock.now().toISOString(),
      );
    await setLimits(store, clock, { account: name, rps: 10_000, burst: 100_000 });
    keys.push((await createKey(store, clock, { account: name, name: 'bench' })).secret);
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
      await setSetting(store, clock, { name, value });
    }
  }
  // #16: whose cached answers may serve a quote (rating.cache_sharing = arg), for the hit rate it costs.
  if (mode === 'cache-sharing') await setSetting(store, clock, { name: 'rating.cache_sharing', value: arg });
  await store.close();

  const service = await createRatingService({
    dataDir: dir,
    listen: { host: '127.0.0.1', port: 0 },
    ...(mode === 'rates' ? { simulatorLatencyMs: Number(arg || 20) } : {}),
    ...(mode.startsWith('bookkeeping') || mode === 'cache-sharing' ? { adapters: [instantCarrier] } : {}),
    // The fan-out scenario: eight carriers at fixed latencies, in-process or each behind its own server.
    ...(mode === 'fanout' ? { adapters: inProcessCarriers(arg.split(',').map(Number)) } : {}),
    ...(mode === 'fanout-http' ? { adapters: httpCarriers(JSON.parse(arg) as string[]) } : {}),
    // #11: the eight carriers' own simulators, each in a process of its own, in sandbox mode.
    ...(mode === 'fanout-sims' ? { simulatorUrls: JSON.parse(arg) as Record<CarrierCode, string> } : {}),
    ...(mode === 'bookkeeping-single' ? { groupCommit: false } : {}),
  });
  process.stdout.write(`${JSON.stringify({ port: service.listener!.port, keys })}\n`);
  process.once('SIGTERM', () => {
    const { batches, ops } = (service.store as SqliteStore).commitStats();
    process.stderr.write(`${JSON.stringify({ batches, ops, cache: service.rateCacheStats() })}\n`);
    void service.close().then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

/**
 * The reference of research/feasibility.md, measured on this machine in this run: a bare node:http handler
 * committing one transaction per request (UPDATE a balance + INSERT a ledger row, WAL, synchronous=FULL)
 * and answering a small JSON. It is the "one fsync per request" figure the bookkeeping runs are held to.
 */
function fsyncReference(dir: string): void {
  const db = new Database(join(dir, 'reference.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
           CREATE TABLE ledger (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, delta INTEGER NOT NULL,
                                at TEXT NOT NULL)`);
  const accounts = 10_000;
  const seed = db.prepare('INSERT INTO account (id, balance) VALUES (?, 100000000)');
  db.transaction(() => {
    for (let id = 1; id <= accounts; id++) seed.run(id);
  })();
  const debit = db.prepare('UPDATE account SET balance = balance - 1 WHERE id = ? AND balance > 0');
  const entry = db.prepare('INSERT INTO ledger (account_id, delta, at) VALUES (?, -1, ?)');
  const charge = db.transaction((id: number) => {
    debit.run(id);
    entry.run(id, new Date().toISOString());
  });
  let n = 0;
  const answer = smallJson({ ok: true });
  bareServer(
    (req, res) => {
      req.resume();
      req.once('end', () => {
        charge((n++ % accounts) + 1);
        answer(res);
      });
    },
    () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  );
}

/** Answers a fixed JSON body the cheapest way node:http allows (one header object, known length). */
function smallJson(value: unknown): (res: ServerResponse) => void {
  const body = JSON.stringify(value);
  const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
  return (res) => {
    res.writeHead(200, headers);
    res.end(body);
  };
}

/** A bare node:http server on 127.0.0.1 that announces its port like the service modes and stops on SIGTERM. */
function bareServer(handler: RequestListener, onStop: () => void = () => {}): void {
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    process.stdout.write(
      `${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, keys: [] })}\n`,
    );
  });
  process.once('SIGTERM', () =>
    server.close(() => {
      onStop();
      process.exit(0);
    }),
  );
}

void main();
