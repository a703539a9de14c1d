// One carrier simulator in a process of its own, as each live carrier is its own service on other machines:
// the rates-latency scenario then measures what RateDesk adds on its side of the wire, and one carrier's
// simulator does not queue behind the other's. Prints one JSON line {url} once listening; exits on SIGTERM.
import { startCdekSimulator } from '../../core/carriers/simulators/cdek';
import { startRussianPostSimulator } from '../../core/carriers/simulators/russian-post';
import type { SimulatorHandle } from '../../core/carriers/simulators/handle';
import { pathToFileURL } from 'node:url';

export const BENCH_CDEK = { id: 'bench', secret: 'bench-secret' } as const;

async function main(carrier: string, latencyMs: number): Promise<void> {
  const sim: SimulatorHandle =
    carrier === 'cdek'
      ? await startCdekSimulator({ latencyMs, clientId: BENCH_CDEK.id, clientSecret: BENCH_CDEK.secret })
      : await startRussianPostSimulator({ latencyMs });
  process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
  process.once('SIGTERM', () => {
    void sim.close().then(() => process.exit(0));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv[2] ?? 'russian-post', Number(process.argv[3] ?? 20));
}
