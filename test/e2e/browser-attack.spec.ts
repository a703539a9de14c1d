// Suite 2 of #8, the browser half: a page served from another origin on loopback attacks the /v1 listener the
// way a web page on the user's machine could (research/reliability.md L-T4): fetch (simple, no-cors, and with
// Authorization), a form POST, an <img> GET and sendBeacon. It must read nothing, and the balance must not
// change. The page even knows a valid key: the defence is the Origin / Sec-Fetch-Site check and the absence
// of CORS, not the key's secrecy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import type { SqliteStore } from '../../core/store';
import { SHIPMENT, startTestService, type TestService } from '../helpers/service';

let t: TestService;
let attacker: Server;
let attackerPort: number;
/** Every request that reached the listener, with the answer it got. */
const reached: Array<{ method: string; url: string; status: number; cors: string[] }> = [];

const ATTACK_PAGE = `<!doctype html><meta charset="utf-8"><title>attacker</title>
<iframe name="sink" id="sink"></iframe>`;

test.beforeAll(async () => {
  t = await startTestService();
  t.service.listener!.server.on('request', (req, res) => {
    res.on('finish', () => {
      const cors = res.getHeaderNames().filter((h) => h.startsWith('access-control-'));
      reached.push({ method: req.method ?? '', url: req.url ?? '', status: res.statusCode, cors });
    });
  });
  attacker = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(ATTACK_PAGE);
  });
  await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
  attackerPort = (attacker.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((r) => attacker.close(r));
  await t.close();
});

interface AttackOutcome {
  name: string;
  /** What the page could read of the listener's answer: null when it read nothing. */
  read: string | null;
}

/** Runs every attack from the page and reports what each could read. */
async function attackFrom(page: Page, pageOrigin: string): Promise<AttackOutcome[]> {
  await page.goto(`${pageOrigin}/attack.html`);
  const target = `http://127.0.0.1:${t.port}`;
  return page.evaluate(
    async ({ target, key, shipment }) => {
      const out: Array<{ name: string; read: string | null }> = [];
      const attempt = async (name: string, run: () => Promise<string | null>): Promise<void> => {
        try {
          out.push({ name, read: await run() });
        } catch {
          out.push({ name, read: null });
        }
      };
      const readable = async (r: Response): Promise<string | null> => {
        // An opaque (no-cors) response has status 0 and an empty body: nothing was read.
        const text = await r.text();
        return r.type === 'opaque' || (r.status === 0 && text === '') ? null : `${r.status} ${text}`;
      };
      const body = JSON.stringify(shipment);
      await attempt('fetch GET /v1/balance', async () => readable(await fetch(`${target}/v1/balance`)));
      await attempt('fetch simple POST text/plain', async () =>
        readable(
          await fetch(`${target}/v1/rates`, {
            method: 'POST',
            headers: { 'Content-Type': 'text/plain' },
            body,
          }),
        ),
      );
      await attempt('fetch no-cors POST', async () =>
        readable(await fetch(`${target}/v1/rates`, { method: 'POST', mode: 'no-cors', body })),
      );
      await attempt('fetch with Authorization (preflighted)', async () =>
        readable(
          await fetch(`${target}/v1/rates`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body,
          }),
        ),
      );
      await attempt('fetch GET with Authorization', async () =>
        readable(await fetch(`${target}/v1/balance`, { headers: { Authorization: `Bearer ${key}` } })),
      );
      await attempt('fetch with credentials: include', async () =>
        readable(await fetch(`${target}/v1/balance`, { credentials: 'include' })),
      );
      await attempt('form POST (text/plain) into an iframe', async () => {
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = `${target}/v1/rates`;
        form.enctype = 'text/plain';
        form.target = 'sink';
        const input = document.createElement('input');
        input.name = body.slice(0, -2);
        input.value = '"}';
        form.append(input);
        document.body.append(form);
        const loaded = new Promise((r) =>
          document.getElementById('sink')!.addEventListener('load', r, { once: true }),
        );
        form.submit();
        await Promise.race([loaded, new Promise((r) => setTimeout(r, 3000))]);
        const frame = document.getElementById('sink') as HTMLIFrameElement;
        // Cross-origin: reading the document throws or gives null.
        return frame.contentDocument?.body?.innerText ?? null;
      });
      await attempt('<img> GET /v1/balance', async () => {
        const img = new Image();
        const result = await new Promise<string>((r) => {
          img.onload = () => r('loaded');
          img.onerror = () => r('error');
          img.src = `${target}/v1/balance?bust=${Math.random()}`;
        });
        return result === 'loaded' ? `${img.naturalWidth}x${img.naturalHeight}` : null;
      });
      await attempt('sendBeacon POST /v1/rates', async () => {
        navigator.sendBeacon(`${target}/v1/rates`, new Blob([body], { type: 'application/json' }));
        await new Promise((r) => setTimeout(r, 500));
        return null; // sendBeacon never exposes an answer; what matters is the balance and the listener's log.
      });
      return out;
    },
    { target, key: t.key, shipment: SHIPMENT },
  );
}

for (const host of ['localhost', '127.0.0.1']) {
  test(`a page from http://${host}:<other port> reads nothing and spends nothing`, async ({ page }) => {
    const balance = (await t.get('/v1/balance')).json.balance as number;
    const ledger = (): number =>
      ((t.service.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM ledger').get() as { n: number })
        .n;
    const ledgerBefore = ledger();
    const firstReached = reached.length;

    const outcomes = await attackFrom(page, `http://${host}:${attackerPort}`);

    for (const o of outcomes) expect(o.read, o.name).toBeNull();
    expect(outcomes).toHaveLength(9);
    // Let a late beacon land before counting.
    await expect.poll(() => reached.length, { timeout: 2_000 }).toBeGreaterThan(firstReached);
    expect((await t.get('/v1/balance')).json.balance).toBe(balance);
    expect(ledger()).toBe(ledgerBefore);

    // The requests the browser did send reached the listener and were refused there (403 before anything
    // else), never with a CORS header: the defence is ours, not the browser's.
    const fromPage = reached
      .slice(firstReached)
      .filter((r) => !(r.method === 'GET' && r.url === '/v1/balance' && r.status === 200));
    console.log(
      `browser-attack from ${host}: ${outcomes.length} attacks, 0 read; reached the listener: ` +
        fromPage.map((r) => `${r.method} ${r.url.split('?')[0]} → ${r.status}`).join(', '),
    );
    expect(fromPage.length).toBeGreaterThanOrEqual(4);
    for (const r of fromPage) {
      expect(r.status, `${r.method} ${r.url}`).toBe(403);
      expect(r.cors).toEqual([]);
    }
  });
}
