// `npm run serve -- …`, `npm run admin -- …`: runs the built host (dist/hosts/, scripts/build-hosts.mjs) in
// this very process, after building it when it is missing or older than its sources. Nothing is printed
// on stdout, so `npm run -s admin -- --json …` still prints exactly one JSON document; a (re)build says so
// in one line on stderr.
//
// `node scripts/run-host.mjs [--out DIR] serve|admin [arguments]`: --out runs (and builds) the hosts in DIR
// instead of dist/hosts (tests).
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildHosts, DEFAULT_OUT, HOSTS, ROOT, staleReason } from './build-hosts.mjs';

let args = process.argv.slice(2);
let outDir = DEFAULT_OUT;
if (args[0] === '--out' && args[1]) {
  outDir = resolve(args[1]);
  args = args.slice(2);
}
const [host, ...hostArgs] = args;
if (!host || !Object.hasOwn(HOSTS, host)) {
  console.error(`Usage: node scripts/run-host.mjs [--out DIR] ${Object.keys(HOSTS).join('|')} [arguments]`);
  process.exit(2);
}

const reason = staleReason(host, outDir);
if (reason) {
  const where = outDir.startsWith(ROOT) ? outDir.slice(ROOT.length + 1) : outDir;
  console.error(`Building ${where}/ (${reason}) …`);
  try {
    await buildHosts({ outDir, log: () => {} });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}

const entry = join(outDir, `${host}.mjs`);
// As if Node had been started with `node dist/hosts/<host>.mjs …` (the hosts read process.argv).
process.argv = [process.argv[0], entry, ...hostArgs];
await import(pathToFileURL(entry).href);
