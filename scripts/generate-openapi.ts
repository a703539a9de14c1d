// Writes docs/openapi.json from the zod contract. `--check` compares instead of writing (for CI): exit 1
// when the committed file is stale, so nobody ships a document that disagrees with the code.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../core/contract/openapi';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'docs', 'openapi.json');
const shown = relative(process.cwd(), target) || target;

/** The exact bytes of docs/openapi.json: 2-space JSON and a final newline, as Prettier would leave it. */
function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

function readCurrent(): string | null {
  try {
    return readFileSync(target, 'utf8');
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return null;
    throw err;
  }
}

const wanted = renderOpenApi();
if (process.argv.includes('--check')) {
  const current = readCurrent();
  if (current !== wanted) {
    console.error(
      `${shown} is ${current === null ? 'missing' : 'out of date'}: run \`npm run openapi\` and commit it.`,
    );
    process.exit(1);
  }
  console.log(`${shown} is up to date.`);
} else {
  writeFileSync(target, wanted);
  console.log(`wrote ${shown}`);
}
