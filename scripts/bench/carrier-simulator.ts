// One built-in carrier's own simulator (its real wire protocol, from its descriptor) in a process of its own,
// as each live carrier is its own service on other machines. Prints one JSON line {url} once listening;
// exits on SIGTERM. Used by the fan-out scenario of #11 (all eight simulators at different latencies).
import { pathToFileURL } from 'node:url';
import { CARRIER_CODES, type CarrierCode } from '../../core/carriers/types';
import { builtInCarrier } from '../../core/platform/built-in-carriers';

async function main(code: string, latencyMs: number): Promise<void> {
  if (!CARRIER_CODES.includes(code as CarrierCode)) throw new Error(`no built-in carrier ${code}`);
  const carrier = await builtInCarrier(code as CarrierCode);
  const sim = await carrier.startSimulator({ latencyMs });
  process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
  process.once('SIGTERM', () => {
    void sim.close().then(() => process.exit(0));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void main(process.argv[2] ?? 'cdek', Number(process.argv[3] ?? 20));
}
