// One built-in carrier's own simulator (its real wire protocol, from the catalogue) in a process of its own,
// as each live carrier is its own service on other machines. Prints one JSON line {url} once listening;
// exits on SIGTERM. Used by the fan-out scenario of #11 (all eight simulators at different latencies).
import { pathToFileURL } from 'node:url';
import { BUILT_IN_CARRIERS } from '../../core/carriers/catalogue';

async function main(code: string, latencyMs: number): Promise<void> {
  const carrier = BUILT_IN_CARRIERS.find((c) => c.code === code);
  if (!carrier) throw new Error(`no built-in carrier ${code}`);
  const sim = await carrier.startSimulator({ latencyMs });
  process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
  process.once('SIGTERM', () => {
    void sim.close().then(() => process.exit(0));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv[2] ?? 'cdek', Number(process.argv[3] ?? 20));
}
