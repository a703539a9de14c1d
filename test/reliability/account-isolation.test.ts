// Suite: one account never hurts another (#16, docs/reliability.md "Account isolation"). A real service on
// 127.0.0.1 with the carriers' own simulators; an attacker account does what the attack run did, while a victim
// account quotes as usual. The invariant: what one account's requests cause (failures its shipments trigger,
// quota it uses, connections it holds) never costs another account a healthy carrier.
//   1. breakers as a weapon: volleys to the all-hang trigger (999990) every cool-down; before #16 three free
//      503s took seven carriers away from everyone;
//   2. a shared quota as a weapon: PEK's 100 requests a minute (live mode, against a simulator as strict about
//      it as PEK) used up by routes PEK does not serve; before #16 the victim lost PEK;
//   3. pool starvation: 60 quotes hung at once by one account; before #16 another account waited ~5 s, lost
//      Russian Post, then lost every carrier for the cool-down.
// Sizes: `npm test` runs the short versions, `npm run soak` (RATEDESK_SOAK=1) the long ones.
import { afterEach, describe, expect, it } from 'vitest';
import { CARRIER_TRIGGERS, SANDBOX_TRIGGERS } from '../../core/carriers/sandbox-triggers';
import type { SimulatorHandle } from '../../core/carriers/simulators/handle';
import { PEK_SIM_API_KEY, PEK_SIM_LOGIN, startPekSimulator } from '../../core/carriers/simulators/pek';
import { CARRIER_CODES } from '../../core/carriers/types';
import { createAccount, setLimits } from '../../core/operations';
import {
  FIRST_TWO_CARRIERS,
  onlyCarriers,
  SHIPMENT,
  startTestService,
  type HttpResult,
  type TestService,
} from '../helpers/service';
import { scale } from '../helpers/soak';

const open: Array<TestService | SimulatorHandle> = [];
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await x.close();
});

const clock = { now: () => new Date() };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An account with its own key; `rps` lifts its rate limit where the attack needs a flood. */
async function account(t: TestService, name: string, rps?: number): Promise<string> {
  await createAccount(t.service.store, clock, { name, balance: 1_000_000 });
  if (rps !== undefined) await setLimits(t.service.store, clock, { account: name, rps, burst: rps });
  return t.newKey(name);
}

let weight = 1_000;
/** A shipment no earlier request asked for, so no rate cache answers for a carrier. */
const fresh = (to: { city: string; postal_code?: string } = SHIPMENT.to) => ({
  ...SHIPMENT,
  to,
  parcel: { ...SHIPMENT.parcel, weight_grams: weight++ },
});

const balanceOf = async (t: TestService, key: string): Promise<number> =>
  (await t.get('/v1/balance', key)).json.balance as number;

describe('account isolation (#16)', () => {
  it('1. failures one account triggers never take a healthy carrier from another', async () => {
    const cooldownMs = 1_000;
    const t = await startTestService({
      settings: {
        'rating.carrier_timeout_ms': '1500',
        'rating.deadline_ms': '2500',
        'rating.breaker_cooldown_ms': String(cooldownMs),
      },
    });
    open.push(t);
    // Warm: the carriers' directories (Boxberry's city list, 5Post's catalogue) are loaded once, by an account
    // of its own, so neither side's first quote pays for them.
    const warmup = await account(t, 'warmup');
    let warm = await t.postRates(fresh(), {}, warmup);
    // A directory still downloading when a quote's timeout ends keeps going for the next quote (boxberry).
    for (let i = 0; i < 10 && warm.json.unavailable.length > 0; i++) {
      await sleep(500);
      warm = await t.postRates(fresh(), {}, warmup);
    }
    expect(warm.json.unavailable, 'warm-up').toEqual([]);
    const attacker = await account(t, 'attacker');
    const victim = t.key;
    const attackerBalance = await balanceOf(t, attacker);
    const victimBalance = await balanceOf(t, victim);

    const durationMs = scale(6 * cooldownMs, 60 * cooldownMs);
    const until = performance.now() + durationMs;
    const attack = (async () => {
      const answers: number[] = [];
      // One volley of three per cool-down, as in the attack run: the breakers' own rhythm.
      while (performance.now() < until) {
        const volley = await Promise.all(
          [0, 1, 2].map(() =>
            t.postRates(fresh({ city: 'Казань', postal_code: SANDBOX_TRIGGERS.allTimeout }), {}, attacker),
          ),
        );
        answers.push(...volley.map((r) => r.status));
        await sleep(cooldownMs);
      }
      return answers;
    })();
    const quotes: HttpResult[] = [];
    await sleep(100);
    while (performance.now() < until) {
      quotes.push(await t.postRates(fresh(), {}, victim));
      await sleep(100);
    }
    const attacks = await attack;

    expect(attacks.length).toBeGreaterThanOrEqual(6);
    expect(new Set(attacks)).toEqual(new Set([503]));
    const degraded = quotes.filter((q) => q.status !== 200 || q.json.unavailable.length > 0);
    expect(
      degraded.map((q) => q.json.unavailable ?? q.json),
      `${degraded.length} of ${quotes.length} victim quotes lost a carrier`,
    ).toEqual([]);
    for (const q of quotes) {
      expect(new Set((q.json.rates as Array<{ carrier: string }>).map((r) => r.carrier))).toEqual(
        new Set(CARRIER_CODES),
      );
    }
    // The attack cost the attacker nothing (503s are free) and the victim exactly one request per 200.
    expect(await balanceOf(t, attacker)).toBe(attackerBalance);
    expect(await balanceOf(t, victim)).toBe(victimBalance - quotes.length);
    console.log(
      `account-isolation 1: ${attacks.length} attacker requests (all 503, free), ${quotes.length} victim quotes, ` +
        `${degraded.length} lost a carrier, in ${durationMs} ms`,
    );
  }, 120_000);

  it('2. one account using up PEK’s shared minute leaves every other account its fair share', async () => {
    // As strict about the minute as PEK: past 100 requests it answers 429.
    const pek = await startPekSimulator({ requestsPerMinute: 100 });
    open.push(pek);
    const t = await startTestService({
      settings: {
        ...onlyCarriers('pek'),
        sandbox: 'off',
        'carriers.pek.endpoint': 'custom',
        'carriers.pek.base_url': pek.url,
        'carriers.pek.login': PEK_SIM_LOGIN,
        'carriers.pek.api_key': PEK_SIM_API_KEY,
      },
    });
    open.push(t);
    const attacker = await account(t, 'attacker', 100);
    const victim = t.key;
    const durationMs = scale(8_000, 55_000);
    const until = performance.now() + durationMs;
    // Routes PEK does not serve (a root hasError): 503, free, and two of PEK's calls each.
    const attack = (async () => {
      const answers: HttpResult[] = [];
      while (performance.now() < until) {
        const batch = await Promise.all(
          [0, 1].map(() =>
            t.postRates(fresh({ city: 'Казань', postal_code: CARRIER_TRIGGERS.pek.noService }), {}, attacker),
          ),
        );
        answers.push(...batch);
        await sleep(100);
      }
      return answers;
    })();
    const quotes: HttpResult[] = [];
    await sleep(1_000); // the attacker has a head start: it has filled its share before the victim arrives
    while (performance.now() < until) {
      quotes.push(await t.postRates(fresh(), {}, victim));
      await sleep(400);
    }
    const attacks = await attack;

    const withPek = quotes.filter(
      (q) => q.status === 200 && q.json.rates.some((r: { carrier: string }) => r.carrier === 'pek'),
    );
    expect(
      quotes.filter((q) => !withPek.includes(q)).map((q) => q.json.unavailable ?? q.json),
      `${quotes.length - withPek.length} of ${quotes.length} victim quotes lost PEK`,
    ).toEqual([]);
    // The attacker met its share, in words that blame nobody: carrier busy, not a carrier error.
    const busy = attacks.filter((a) => JSON.stringify(a.json.unavailable ?? []).includes('carrier busy'));
    expect(busy.length).toBeGreaterThan(0);
    expect(attacks.every((a) => a.status === 503)).toBe(true);
    expect(JSON.stringify(attacks.map((a) => a.json.unavailable))).not.toContain('429');
    console.log(
      `account-isolation 2: ${attacks.length} attacker quotes (${busy.length} told carrier busy), ` +
        `${quotes.length} victim quotes, ${quotes.length - withPek.length} lost PEK; PEK saw ${pek.requestCount()} requests`,
    );
  }, 120_000);

  it('3. sixty quotes hung at once by one account hold neither the connections nor the breakers of others', async () => {
    const timeoutMs = 2_500;
    const t = await startTestService({
      settings: {
        ...FIRST_TWO_CARRIERS,
        'rating.carrier_timeout_ms': String(timeoutMs),
        'rating.deadline_ms': String(timeoutMs + 1_000),
      },
    });
    open.push(t);
    const attacker = await account(t, 'attacker', 1_000);
    const victim = t.key;
    // The victim's usual latency, measured here first.
    const reference: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      expect((await t.postRates(fresh(), {}, victim)).json.unavailable).toEqual([]);
      reference.push(performance.now() - started);
    }
    const usualMs = Math.max(...reference);

    const hung = scale(60, 200);
    const hangs = Promise.all(
      Array.from({ length: hung }, () =>
        t.postRates(
          fresh({ city: 'Казань', postal_code: CARRIER_TRIGGERS['russian-post'].timeout }),
          {},
          attacker,
        ),
      ),
    );
    await sleep(300);
    const during: Array<{ ms: number; r: HttpResult }> = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const r = await t.postRates(fresh(), {}, victim);
      during.push({ ms: performance.now() - started, r });
    }
    const attackAnswers = await hangs;
    const after = await t.postRates(fresh(), {}, victim);

    // Past its bound of calls in flight the attacker is told to slow down, at once.
    const refused = attackAnswers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(hung - 16);
    expect(refused.every((a) => a.headers['retry-after'] === '1')).toBe(true);
    for (const { ms, r } of during) {
      expect(r.json.unavailable, 'the victim keeps both carriers while the attacker hangs').toEqual([]);
      // Its usual latency give or take the machine's noise, never a wait for a connection until the timeout.
      expect(ms, `victim quote vs usual ${usualMs.toFixed(0)} ms`).toBeLessThan(usualMs * 3 + 750);
    }
    expect(after.json.unavailable, 'and once the hung quotes time out, no breaker is open for it').toEqual(
      [],
    );
    console.log(
      `account-isolation 3: ${hung} hung quotes (${refused.length} answered 429 at once), victim quotes ` +
        `${during.map((d) => d.ms.toFixed(0)).join(', ')} ms during (usual ≤ ${usualMs.toFixed(0)} ms), all carriers`,
    );
  }, 120_000);
});
