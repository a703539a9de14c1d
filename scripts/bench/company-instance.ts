// One instance of the company-server benchmark (scripts/bench/company.ts), in a process of its own: the core
// on a data folder (SQLite, one instance) or on a company database (PostgreSQL, one of N), with an in-process
// carrier that answers after a fixed latency (`rates`) or at once (`charges`: the bookkeeping alone). The store was prepared by the orchestrator. Prints `{port}`; exits on
// SIGTERM.
import { createRatingService } from '../../core/service';
import { delayedCarrier, instantCarrier } from './instant-carrier';

const [where = '', scenario = 'rates', latency = '20'] = process.argv.slice(2);

async function main(): Promise<void> {
  const database = /^postgres/.test(where);
  const service = await createRatingService({
    dataDir: database ? '' : where,
    ...(database ? { database: { url: where } } : {}),
    listen: { host: '127.0.0.1', port: 0 },
    warmUp: false,
    adapters: [scenario === 'charges' ? instantCarrier : delayedCarrier(Number(latency))],
  });
  process.stdout.write(`${JSON.stringify({ port: service.listener!.port })}\n`);
  process.once('SIGTERM', () => void service.close().then(() => process.exit(0)));
}

void main();
