// #16: the rate cache per asker (rating.cache_sharing = account, the default) against one cache for the whole
// install (shared). Three accounts ask for twenty shipments, each shipment once per account, in a fixed
// interleaving; the figure is the cache's hit rate either way, read from the service itself. Per account, a
// shipment asked by another account is a miss: the price of not telling one account what another asked.
import { request } from 'node:http';
import { startServer, stopChild, type Child } from './children';

const SHIPMENTS = 20;

function post(c: Child, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: c.port,
        method: 'POST',
        path: '/v1/rates',
        headers: {
          Host: `127.0.0.1:${c.port}`,
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

async function hitRate(sharing: 'account' | 'shared'): Promise<{ hits: number; misses: number; ok: number }> {
  const c = await startServer('cache-sharing', sharing);
  let ok = 0;
  for (let round = 0; round < c.keys.length; round++) {
    for (let s = 0; s < SHIPMENTS; s++) {
      const body = JSON.stringify({
        from: { city: 'Москва', postal_code: '101000' },
        to: { city: 'Казань', postal_code: '420000' },
        parcel: { weight_grams: 1_000 + s, length_cm: 30, width_cm: 20, height_cm: 10 },
      });
      if ((await post(c, c.keys[(round + s) % c.keys.length]!, body)) === 200) ok += 1;
    }
  }
  await stopChild(c.proc);
  const line = c.stderr.map((l) => l.trim()).find((l) => l.startsWith('{') && l.includes('"cache"'));
  const stats = (JSON.parse(line ?? '{}') as { cache?: { hits: number; misses: number } }).cache;
  return { hits: stats?.hits ?? 0, misses: stats?.misses ?? 0, ok };
}

export async function benchCacheSharing(): Promise<void> {
  const own = await hitRate('account');
  const shared = await hitRate('shared');
  const pct = (r: { hits: number; misses: number }): string =>
    `${((100 * r.hits) / Math.max(1, r.hits + r.misses)).toFixed(1)} %`;
  console.log(
    `cache sharing: 3 accounts × ${SHIPMENTS} shipments, each shipment once per account (${3 * SHIPMENTS} rates calls)`,
  );
  console.log(
    `  rating.cache_sharing = account (default)  hit rate ${pct(own)} (${own.hits} hits, ${own.misses} misses, ${own.ok} × 200)`,
  );
  console.log(
    `  rating.cache_sharing = shared             hit rate ${pct(shared)} (${shared.hits} hits, ${shared.misses} misses, ${shared.ok} × 200)\n`,
  );
}
