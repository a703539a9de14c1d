// `npm run admin -- [--data-dir DIR] [--json] <command>`: a thin shell over the operations of core/operations.
// Each command opens the data file, runs one store operation in one short transaction and closes it, so it
// is safe beside a running server. The command table and one handler module per area live in ./admin/.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runAdmin } from './admin/run';
import { takeProcessEnv } from './server-key-env';

export { runAdmin, USAGE, type AdminIo } from './admin/run';

// ---- entry point ------------------------------------------------------------------------------------

function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  runAdmin(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: takeProcessEnv(),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
