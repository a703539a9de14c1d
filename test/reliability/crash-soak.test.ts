// Crash soak: `serve` under load from several accounts, every request with its own Idempotency-Key, killed
// with SIGKILL at seeded random moments and restarted on the same folder, N times. The client's view (what
// each request answered, or that its connection died) is checked against the data file after every kill:
// the file is sound, the balance is the opening minus the charges, every 200 a client got is in the ledger,
// and a key whose outcome is unknown, retried (twice at once, then once more), ends up charged exactly once.
// It runs on both stores: the desk's data folder (SQLite) and a company database (PostgreSQL, `serve
// --database`), where a killed instance also leaves balance holds and idempotency claims behind in the
// database: a claim must keep its key answering 409 until its lease runs out, then the retry runs once, and
// every hold must be given back (reaped) once its lease is over.
//
// Replay a schedule: RATEDESK_SEED=<seed printed below> npx vitest run test/reliability/crash-soak.test.ts
// (add RATEDESK_SOAK=1 for the long run). The seed fixes the kill moments and carrier latencies; the exact
// interleaving of requests still depends on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openCompanyStore } from '../../core/store/company';
import { openDataFolder } from '../../core/store/data-folder';
import { createAccount, createKey, setLimits } from '../../core/operations';
import {
  between,
  errorCode,
  idemId,
  killAllChildren,
  killHard,
  parseOk,
  postRates,
  prng,
  sleep,
  snapshot,
  startServe,
  stopGracefully,
  type IdemRow,
  type Outcome,
  type RatesOk,
  type ServeChild,
  type Snapshot,
} from '../helpers/crash-soak';
import { snapshotPg, type PgSnapshot } from '../helpers/crash-soak-postgres';
import { createTestDatabase, dropTestDatabase } from '../helpers/postgres';
import { SHIPMENT } from '../helpers/service';
import { scale, SOAK, suiteSeed } from '../helpers/soak';

const SEED = suiteSeed();
const CYCLES = scale(10, 60);
/** Fewer on PostgreSQL in CI (npm test's budget); the soak runs as many as on SQLite. */
const PG_CYCLES = scale(3, 60);
/**
 * Leases of a killed instance's holds and claims on PostgreSQL (serve's RATEDESK_HOLD_LEASE_MS and
 * RATEDESK_IDEMPOTENCY_LEASE_MS; 2 and 5 minutes by default). The first serve's claims outlive its restart, so
 * the retries meet live claims of the dead instance (409 until the lease ends, then one run); the later ones'
 * have expired by then, so the retries take them over at once.
 */
const PG_HOLD_LEASE_MS = 1_000;
const PG_FIRST_IDEMPOTENCY_LEASE_MS = 8_000;
const PG_IDEMPOTENCY_LEASE_MS = 1_500;
/** A claim whose lease ends later than this after a retry was sent must still refuse it (clock and travel). */
const LEASE_MARGIN_MS = 300;
const ACCOUNT_NAMES = ['crash-a', 'crash-b', 'crash-c'] as const;
/** Far above what 60 cycles can spend, so 402 never shows up and every charge is a real one. */
const OPENING = 100_000;
const CLIENTS_PER_ACCOUNT = 4;
/** When the kill comes, counted from the start of the load. */
const KILL_AFTER_MS: [number, number] = [300, 2_000];
/** Sandbox carrier latency per serve run: long enough that requests are mid-flight when the kill lands. */
const LATENCY_MS: [number, number] = [5, 20];
/**
 * Share of load requests whose client gives up (closes the connection) after a random 0–40 ms: unknown
 * outcomes in the middle of serving, not only at the kill, through the server's "client gone" path.
 */
const CLIENT_ABORT_SHARE = 0.02;
/** Requests answered 200 before the kill that are sent again after the restart: their records must replay. */
const ACKED_REPLAYS_PER_CYCLE = 3;
/**
 * Generous: no assertion is about time; this only turns a hung server into a failure instead of a stall. The
 * retries go to a freshly started instance all at once (tens of them, cold code); on a loaded CI host one of
 * them once took over 20 s, so the slowest retry is printed in the summary.
 */
const REQUEST_TIMEOUT_MS = 60_000;
/** Answers that mean "not run, try again" and charge nothing (docs/api.md). */
const TRANSIENT = new Set(['idempotency_key_in_use', 'rate_limit_exceeded', 'rates_unavailable']);
const REQUEST_ID = /^req_[0-9A-Za-z]{20}$/;

interface Account {
  name: string;
  id: number;
  /** Held in memory only: never printed, never part of a failure message. */
  secret: string;
}

interface Sent {
  account: Account;
  key: string;
  body: string;
  outcome?: Outcome;
}

/** The first 200 seen for a key (first time or replay): every later 200 for it must be this, byte for byte. */
interface Acked {
  account: Account;
  key: string;
  text: string;
  ok: RatesOk;
}

const dirs: string[] = [];
const databases: string[] = [];

async function cleanup(): Promise<void> {
  await killAllChildren();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const url of databases.splice(0)) await dropTestDatabase(url);
}
afterEach(cleanup);
afterAll(cleanup);

/** Different bodies per request, so that a replay of the wrong record would not go unnoticed. */
function shipmentBody(n: number): string {
  return JSON.stringify({ ...SHIPMENT, parcel: { ...SHIPMENT.parcel, weight_grams: 500 + (n % 40) * 250 } });
}

describe.each(['sqlite', 'postgres'] as const)(
  'crash soak on %s: SIGKILL under load, restart, ledger and idempotency still exact',
  (kind) => {
    const pg = kind === 'postgres';
    const CYCLES_HERE = pg ? PG_CYCLES : CYCLES;
    it(
      `survives ${CYCLES_HERE} kill -9 / restart cycles without a lost deduction or a double charge`,
      async () => {
        const started = performance.now();
        console.log(
          `crash soak (${kind}): seed ${SEED}, ${CYCLES_HERE} cycles${SOAK ? ' (soak)' : ''}; replay with RATEDESK_SEED=${SEED}`,
        );
        // Drawn before anything runs, so the schedule depends on the seed alone, not on how the run goes.
        const rand = prng(SEED);
        const schedule = Array.from({ length: CYCLES_HERE + 1 }, () => ({
          killAfterMs: between(rand, ...KILL_AFTER_MS),
          latencyMs: between(rand, ...LATENCY_MS),
        }));

        /** The data folder, or the company database's URL. */
        let where: string;
        if (pg) databases.push((where = await createTestDatabase('crash')));
        else dirs.push((where = mkdtempSync(join(tmpdir(), 'ratedesk-crash-soak-'))));
        const read = (): Promise<Snapshot> =>
          pg ? snapshotPg(where) : Promise.resolve(snapshot(join(where, 'ratedesk.db')));
        const serveEnv = (cycle: number): Record<string, string> => ({
          RATEDESK_SIMULATOR_LATENCY_MS: String(schedule[cycle]!.latencyMs),
          ...(pg
            ? {
                RATEDESK_HOLD_LEASE_MS: String(PG_HOLD_LEASE_MS),
                RATEDESK_IDEMPOTENCY_LEASE_MS: String(
                  cycle === 0 ? PG_FIRST_IDEMPOTENCY_LEASE_MS : PG_IDEMPOTENCY_LEASE_MS,
                ),
              }
            : {}),
        });
        const clock = { now: () => new Date() };
        const accounts: Account[] = [];
        {
          const store = pg ? await openCompanyStore(where) : openDataFolder(where);
          try {
            for (const name of ACCOUNT_NAMES) {
              const { id } = await createAccount(store, clock, { name, balance: OPENING });
              // The free tier's 2 req/s would turn the load into a stream of 429s that charge nothing.
              await setLimits(store, clock, { account: name, rps: 10_000, burst: 100_000 });
              const { secret } = await createKey(store, clock, { account: name, name: 'crash soak' });
              accounts.push({ name, id, secret });
            }
          } finally {
            await store.close();
          }
        }

        const sentKeys = new Set<string>();
        const acked = new Map<string, Acked>();
        /** Keys that got a definite non-200 (429, 503): nothing may ever be charged or stored for them. */
        const declined = new Map<string, string>();
        /** Non-replayed 200s per key over the whole run: more than one is a double charge seen by the client. */
        const executions = new Map<string, number>();
        const fig = {
          cycles: 0,
          requests: 0,
          ok200: 0,
          declined: 0,
          inFlightAtKill: 0,
          clientAborts: 0,
          unknown: 0,
          committedUnacked: 0,
          retries: 0,
          slowestRetryMs: 0,
          retryExecuted: 0,
          replays: 0,
          ackedReplays: 0,
          lostDeductions: 0,
          doubleCharges: 0,
          /** PostgreSQL: holds and claims a kill left in the database, and retries its claims refused in time. */
          holdsLeftByKill: 0,
          claimsLeftByKill: 0,
          refusedByDeadClaim: 0,
        };

        /** Records a 200 for a key; returns a violation when it contradicts an earlier 200 for the same key. */
        function ack(account: Account, key: string, o: Extract<Outcome, { kind: 'response' }>): string[] {
          const v: string[] = [];
          const ok = parseOk(o.text);
          if (!ok) return [`${key}: 200 without request_id/balance_remaining: ${o.text.slice(0, 200)}`];
          if (!REQUEST_ID.test(ok.request_id)) v.push(`${key}: malformed request_id ${ok.request_id}`);
          if (o.requestIdHeader !== ok.request_id)
            v.push(`${key}: X-Request-Id ${o.requestIdHeader} ≠ body request_id ${ok.request_id}`);
          const id = idemId(account.id, key);
          if (!o.replayed) executions.set(id, (executions.get(id) ?? 0) + 1);
          else fig.replays += 1;
          if (!o.replayed && (executions.get(id) ?? 0) > 1) {
            fig.doubleCharges += 1;
            v.push(`${key}: executed (not replayed) twice: charged twice`);
          }
          const first = acked.get(id);
          if (first && first.text !== o.text)
            v.push(`${key}: two different 200 bodies (${first.ok.request_id} then ${ok.request_id})`);
          if (!first) acked.set(id, { account, key, text: o.text, ok });
          return v;
        }

        /**
         * What must hold in any state of the file, crashed or not: sound file, balances equal to their ledger and
         * to opening − charges, charges and idempotency records one-to-one, every 200 the clients got is there
         * with the very body they got, nothing stored for a declined request.
         */
        function verify(snap: Snapshot, when: string): string[] {
          const v: string[] = [];
          const at = (s: string): string => `[seed ${SEED}, ${when}] ${s}`;
          if (snap.integrity !== 'ok') v.push(at(`integrity_check: ${snap.integrity}`));
          const ours = new Set(accounts.map((a) => a.id));
          for (const a of accounts) {
            const s = snap.accounts.get(a.name);
            if (!s) {
              v.push(at(`account ${a.name} missing`));
              continue;
            }
            if (s.balance !== s.ledgerSum)
              v.push(at(`${a.name}: balance ${s.balance} ≠ ledger sum ${s.ledgerSum}`));
            if (s.credited !== OPENING) v.push(at(`${a.name}: credited ${s.credited} ≠ opening ${OPENING}`));
            if (s.balance !== OPENING - s.charges)
              v.push(at(`${a.name}: balance ${s.balance} ≠ opening ${OPENING} − ${s.charges} charges`));
          }
          const explained = new Set<number>();
          for (const c of snap.charges) {
            if (!ours.has(c.accountId)) continue;
            if (c.delta !== -1) v.push(at(`ledger row ${c.ledgerId}: rates delta ${c.delta} ≠ −1`));
            if (c.requestId === null || !REQUEST_ID.test(c.requestId))
              v.push(at(`ledger row ${c.ledgerId}: request_id ${String(c.requestId)}`));
          }
          const recordRequestIds = new Set<string>();
          for (const r of snap.idempotency.values()) {
            if (!ours.has(r.accountId)) continue;
            if (!sentKeys.has(idemId(r.accountId, r.key)))
              v.push(at(`record for a key never sent: ${r.key}`));
            if (r.status !== 200) v.push(at(`${r.key}: stored status ${r.status} (only 200s are stored)`));
            if (recordRequestIds.has(r.requestId))
              v.push(at(`${r.key}: request_id ${r.requestId} stored twice`));
            recordRequestIds.add(r.requestId);
            const c = snap.chargeByRequestId.get(r.requestId);
            if (!c || c.accountId !== r.accountId) {
              v.push(at(`${r.key}: stored 200 ${r.requestId} has no ledger row: answer without a charge`));
              continue;
            }
            explained.add(c.ledgerId);
            const body = parseOk(r.body);
            if (body?.request_id !== r.requestId) v.push(at(`${r.key}: stored body is not its own answer`));
            if (body && body.balance_remaining !== c.balanceAfter)
              v.push(
                at(
                  `${r.key}: balance_remaining ${body.balance_remaining} ≠ ${c.balanceAfter} after its ledger row`,
                ),
              );
          }
          let extra = 0;
          for (const c of snap.charges) {
            if (!ours.has(c.accountId) || explained.has(c.ledgerId)) continue;
            extra += 1;
            v.push(
              at(`ledger row ${c.ledgerId} (${c.requestId}) has no idempotency record: an extra charge`),
            );
          }
          // The figures keep the worst state seen, so that a failing run still prints what it found.
          fig.doubleCharges = Math.max(fig.doubleCharges, extra);
          let lost = 0;
          for (const [id, a] of acked) {
            const r = snap.idempotency.get(id);
            if (!snap.chargeByRequestId.has(a.ok.request_id)) {
              lost += 1;
              v.push(
                at(`${a.key}: client got 200 ${a.ok.request_id} but the ledger has no row: lost deduction`),
              );
            }
            if (!r)
              v.push(at(`${a.key}: client got 200 but no idempotency record: a retry would charge again`));
            else if (r.body !== a.text)
              v.push(at(`${a.key}: stored body differs from the 200 the client got`));
          }
          fig.lostDeductions = Math.max(fig.lostDeductions, lost);
          for (const [id, why] of declined) {
            if (snap.idempotency.has(id))
              v.push(at(`${id.split('\u0000')[1]}: answered ${why} yet stored as run`));
          }
          return v;
        }

        /** Once every unknown outcome is settled, the file must say exactly what the clients were told. */
        function verifyExact(snap: Snapshot, when: string): string[] {
          const v: string[] = [];
          for (const a of accounts) {
            const s = snap.accounts.get(a.name);
            const told = [...acked.values()].filter((x) => x.account.id === a.id).length;
            if (s && s.charges > told) fig.doubleCharges = Math.max(fig.doubleCharges, s.charges - told);
            if (s && s.charges !== told)
              v.push(`[seed ${SEED}, ${when}] ${a.name}: ${s.charges} charges ≠ ${told} keys answered 200`);
          }
          return v;
        }

        async function load(serve: ServeChild, cycle: number, killAfterMs: number): Promise<Sent[]> {
          const agent = new Agent({ keepAlive: true, maxSockets: 64 });
          const mine: Sent[] = [];
          let stopped = false;
          const clients = accounts.flatMap((account, a) =>
            Array.from({ length: CLIENTS_PER_ACCOUNT }, async (_, client) => {
              // Each client's own stream, so that which requests give up depends on the seed, not on timing.
              const own = prng((SEED ^ Math.imul(cycle * 64 + a * 8 + client + 1, 0x9e3779b1)) >>> 0);
              for (let seq = 0; !stopped; seq++) {
                const abort = own() < CLIENT_ABORT_SHARE;
                const abortAfterMs = between(own, 0, 40);
                if (abort) fig.clientAborts += 1;
                const key = `cs-${SEED}-${cycle}-${account.name}-${client}-${seq}`;
                const s: Sent = { account, key, body: shipmentBody(seq + client) };
                mine.push(s);
                sentKeys.add(idemId(account.id, key));
                s.outcome = await postRates({
                  port: serve.port,
                  agent,
                  secret: account.secret,
                  idempotencyKey: key,
                  body: s.body,
                  timeoutMs: REQUEST_TIMEOUT_MS,
                  ...(abort ? { abortAfterMs } : {}),
                });
              }
            }),
          );
          await sleep(killAfterMs);
          // Set before the kill, so no client starts a request the dead server could never have seen.
          stopped = true;
          fig.inFlightAtKill += mine.filter((s) => s.outcome === undefined).length;
          await killHard(serve);
          await Promise.all(clients);
          agent.destroy();
          return mine;
        }

        /**
         * Retries an unknown outcome after the restart: two copies at once (one may run, the other must wait with
         * 409 or replay), then one more that must replay. `record` is what the file held before the retries;
         * `leaseUntilMs`, on PostgreSQL, when the killed instance's claim of the key runs out: until then every
         * retry must be refused with 409.
         */
        async function settle(
          port: number,
          agent: Agent,
          s: Sent,
          record: IdemRow | undefined,
          leaseUntilMs: number | undefined,
        ): Promise<string[]> {
          const v: string[] = [];
          const call = async (): Promise<Outcome> => {
            fig.retries += 1;
            const sentAt = performance.now();
            const send = (via: Agent): Promise<Outcome> =>
              postRates({
                port,
                agent: via,
                secret: s.account.secret,
                idempotencyKey: s.key,
                body: s.body,
                timeoutMs: REQUEST_TIMEOUT_MS,
              });
            const o = await send(agent).finally(() => {
              fig.slowestRetryMs = Math.max(fig.slowestRetryMs, performance.now() - sentAt);
            });
            // A kept-alive socket that the server closed while it sat idle (its keep-alive timeout) resets when
            // it is reused, before the request reached the server: a client sends the same request again on a
            // new connection, which the Idempotency-Key makes safe. Anything else lost is still a violation.
            if (o.kind === 'lost' && /ECONNRESET|EPIPE|socket hang up/.test(o.error)) {
              const fresh = new Agent({ keepAlive: false });
              try {
                return await send(fresh);
              } finally {
                fresh.destroy();
              }
            }
            return o;
          };
          const id = idemId(s.account.id, s.key);
          const executedBefore = executions.get(id) ?? 0;
          let got: string | undefined;
          const check = (o: Outcome, what: string): void => {
            if (o.kind === 'lost') {
              v.push(`${s.key}: ${what} lost on a live server: ${o.error}`);
              return;
            }
            if (o.status === 200) {
              v.push(...ack(s.account, s.key, o));
              got ??= o.text;
              if (record && !o.replayed)
                v.push(`${s.key}: ${what} ran again though it was charged before the kill`);
              if (record && o.text !== record.body) v.push(`${s.key}: ${what} is not the stored answer`);
              return;
            }
            const code = errorCode(o.text);
            // A finished record must replay: "in use" would mean the crashed run still held the key.
            if (code === undefined || !TRANSIENT.has(code) || (record && code === 'idempotency_key_in_use'))
              v.push(`${s.key}: ${what} answered ${o.status} ${code ?? o.text.slice(0, 100)}`);
          };
          // Enough rounds to outlast a dead instance's claim.
          const leaseLeftMs = leaseUntilMs === undefined ? 0 : Math.max(0, leaseUntilMs - Date.now());
          const rounds = 5 + Math.ceil(leaseLeftMs / 1_000);
          for (let round = 0; round < rounds && got === undefined && v.length === 0; round++) {
            if (round > 0) await sleep(1_000);
            const claimed = leaseUntilMs !== undefined && leaseUntilMs > Date.now() + LEASE_MARGIN_MS;
            const [a, b] = await Promise.all([call(), call()]);
            check(a, 'retry');
            check(b, 'concurrent retry');
            for (const o of claimed ? [a, b] : []) {
              fig.refusedByDeadClaim += 1;
              if (o.kind !== 'response' || errorCode(o.text) !== 'idempotency_key_in_use')
                v.push(`${s.key}: a retry ran while the killed instance's claim had its lease still`);
            }
          }
          if (got === undefined && v.length === 0)
            v.push(`${s.key}: no 200 after ${rounds} rounds of retries`);
          const third = await call();
          check(third, 'third retry');
          if (third.kind === 'response' && third.status === 200 && !third.replayed)
            v.push(`${s.key}: third retry executed instead of replaying`);
          const executedNow = (executions.get(id) ?? 0) - executedBefore;
          if (!record) fig.retryExecuted += executedNow;
          return v;
        }

        /**
         * PostgreSQL, once nothing is in flight: every hold and claim the kills left is gone (their leases ran
         * out and a reaper or a retry took them over). Polled: a hold is given back by the next reaper round.
         */
        async function released(when: string): Promise<string[]> {
          const deadline = performance.now() + PG_HOLD_LEASE_MS + 10_000;
          for (;;) {
            const snap = (await read()) as PgSnapshot;
            const ours = new Set(accounts.map((a) => a.id));
            const v = [
              ...accounts
                .filter((a) => (snap.held.get(a.name) ?? 0) > 0)
                .map((a) => `${a.name}: ${snap.held.get(a.name)} request(s) of balance still held`),
              ...[...snap.claims.keys()]
                .filter((id) => ours.has(Number(id.split('\u0000')[0])))
                .map((id) => `${id.split('\u0000')[1]}: claimed still, with nothing in flight`),
            ].map((x) => `[seed ${SEED}, ${when}] ${x}`);
            if (v.length === 0 || performance.now() > deadline) return v;
            await sleep(100);
          }
        }

        let serve = await startServe(where, serveEnv(0));
        try {
          for (let cycle = 0; cycle < CYCLES_HERE; cycle++) {
            const { killAfterMs } = schedule[cycle]!;
            const mine = await load(serve, cycle, killAfterMs);
            fig.requests += mine.length;
            fig.cycles += 1;

            const unknown: Sent[] = [];
            const loadViolations: string[] = [];
            for (const s of mine) {
              const o = s.outcome!;
              if (o.kind === 'lost') {
                unknown.push(s);
                continue;
              }
              if (o.status === 200) {
                fig.ok200 += 1;
                if (o.replayed) loadViolations.push(`${s.key}: a fresh key was answered as a replay`);
                loadViolations.push(...ack(s.account, s.key, o));
                continue;
              }
              const code = errorCode(o.text);
              if (code === undefined || !TRANSIENT.has(code) || code === 'idempotency_key_in_use')
                loadViolations.push(`${s.key}: answered ${o.status} ${code ?? o.text.slice(0, 100)}`);
              declined.set(idemId(s.account.id, s.key), `${o.status} ${code}`);
              fig.declined += 1;
            }
            fig.unknown += unknown.length;
            expect(loadViolations, `seed ${SEED}, cycle ${cycle} load`).toEqual([]);
            expect(mine.length, `cycle ${cycle}: the load sent nothing`).toBeGreaterThan(0);

            // The file exactly as the kill left it, before a new serve touches it.
            const killed = await read();
            expect(verify(killed, `cycle ${cycle}, after kill`)).toEqual([]);
            if (pg) {
              const k = killed as PgSnapshot;
              fig.holdsLeftByKill += accounts.reduce((n, a) => n + (k.held.get(a.name) ?? 0), 0);
              fig.claimsLeftByKill += k.claims.size;
            }
            serve = await startServe(where, serveEnv(cycle + 1));
            const before = await read();
            expect(verify(before, `cycle ${cycle}, after restart`)).toEqual([]);

            const agent = new Agent({ keepAlive: true, maxSockets: 64 });
            // Charged before the kill and answered: the record survived the crash and must replay, uncharged.
            const pick = prng((SEED + cycle * 7919) >>> 0);
            const answered = mine.filter((s) => s.outcome?.kind === 'response' && s.outcome.status === 200);
            const sample = Array.from(
              { length: Math.min(ACKED_REPLAYS_PER_CYCLE, answered.length) },
              () => answered[Math.floor(pick() * answered.length)]!,
            );
            const replayViolations: string[] = [];
            for (const s of sample) {
              const o = await postRates({
                port: serve.port,
                agent,
                secret: s.account.secret,
                idempotencyKey: s.key,
                body: s.body,
                timeoutMs: REQUEST_TIMEOUT_MS,
              });
              fig.ackedReplays += 1;
              if (o.kind !== 'response' || o.status !== 200 || !o.replayed)
                replayViolations.push(
                  `${s.key}: answered before the kill, after restart got ${JSON.stringify(o)}`,
                );
              else replayViolations.push(...ack(s.account, s.key, o));
            }
            expect(replayViolations, `seed ${SEED}, cycle ${cycle} replays of answered keys`).toEqual([]);
            const records = unknown.map((s) => before.idempotency.get(idemId(s.account.id, s.key)));
            fig.committedUnacked += records.filter((r) => r !== undefined).length;
            const retryViolations = (
              await Promise.all(
                unknown.map((s, i) =>
                  settle(
                    serve.port,
                    agent,
                    s,
                    records[i],
                    (before as Partial<PgSnapshot>).claims?.get(idemId(s.account.id, s.key)),
                  ),
                ),
              )
            ).flat();
            agent.destroy();
            expect(
              retryViolations,
              `seed ${SEED}, cycle ${cycle} retries (serve ${serve.proc.exitCode === null && serve.proc.signalCode === null ? 'running' : 'gone'}; its last stderr lines:\n${serve.stderr.slice(-15).join('\n')})`,
            ).toEqual([]);
            if (pg) expect(await released(`cycle ${cycle}, after retries`)).toEqual([]);

            const after = await read();
            expect([
              ...verify(after, `cycle ${cycle}, after retries`),
              ...verifyExact(after, `cycle ${cycle}, after retries`),
            ]).toEqual([]);
            const chargesOf = (s: Snapshot): number =>
              accounts.reduce((n, a) => n + (s.accounts.get(a.name)?.charges ?? 0), 0);
            const executedHere = unknown.filter(
              (s, i) => !records[i] && acked.has(idemId(s.account.id, s.key)),
            );
            // Each unknown key without a record runs exactly once; one with a record runs zero times.
            expect(chargesOf(after) - chargesOf(before), `seed ${SEED}, cycle ${cycle}`).toBe(
              executedHere.length,
            );
          }

          // A clean stop at the end, and the file checked once more with nobody serving it.
          expect(await stopGracefully(serve)).toBe(0);
          const last = await read();
          expect([...verify(last, 'final'), ...verifyExact(last, 'final')]).toEqual([]);
          // The closing figure: total charges == distinct keys that ever got a 200, exactly.
          const charges = accounts.reduce((n, a) => n + last.accounts.get(a.name)!.charges, 0);
          expect(charges).toBe(acked.size);
          expect(fig.lostDeductions).toBe(0);
          expect(fig.doubleCharges).toBe(0);
          // Without requests cut by the kills the run would have proved nothing about crashes.
          expect(fig.unknown).toBeGreaterThan(0);
          if (pg) {
            expect(await released('final')).toEqual([]);
            // Nor, on PostgreSQL, without holds and claims left behind by them.
            expect(fig.holdsLeftByKill).toBeGreaterThan(0);
            expect(fig.claimsLeftByKill).toBeGreaterThan(0);
            // The first serve's claims outlived its restart: some retries must have met them in force.
            expect(fig.refusedByDeadClaim).toBeGreaterThan(0);
          }
        } finally {
          const wall = ((performance.now() - started) / 1000).toFixed(1);
          console.log(
            `crash soak summary (${kind}): seed=${SEED} cycles=${fig.cycles} requests=${fig.requests} ` +
              `200s=${fig.ok200} declined=${fig.declined} in-flight-at-kill=${fig.inFlightAtKill} ` +
              `client-aborts=${fig.clientAborts} unknown-outcome=${fig.unknown} charged-but-unanswered=${fig.committedUnacked} ` +
              `retries=${fig.retries} (ran=${fig.retryExecuted} replayed=${fig.replays}; slowest ` +
              `${fig.slowestRetryMs.toFixed(0)} ms) ` +
              `answered-then-replayed=${fig.ackedReplays} ` +
              `distinct-keys-charged=${acked.size} lost-deductions=${fig.lostDeductions} ` +
              `double-charges=${fig.doubleCharges}` +
              (pg
                ? ` holds-left-by-kills=${fig.holdsLeftByKill} claims-left-by-kills=${fig.claimsLeftByKill} ` +
                  `retries-refused-by-a-live-dead-claim=${fig.refusedByDeadClaim}`
                : '') +
              ` wall=${wall}s`,
          );
        }
      },
      scale(180_000, 3_600_000),
    );
  },
);
