#!/usr/bin/env node
// Lints docs/openapi.json (or the files given) with Redocly and redocly.yaml. Redocly exits 0 on
// warnings; here any problem, warning or error, fails the run, so the document stays at zero problems.
// Works offline: telemetry and update checks are off, and nothing else in `lint` needs the network.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The installed CLI, started with this Node: `npx` could reach for the registry, and prints npm noise.
const cli = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin',
  'cli.js',
);
// Files named on the command line are relative to where the command runs; Redocly runs from the root.
const files = process.argv.length > 2 ? process.argv.slice(2).map((f) => resolve(f)) : ['docs/openapi.json'];

const run = spawnSync(
  process.execPath,
  [
    cli,
    'lint',
    ...files,
    '--config',
    join(root, 'redocly.yaml'),
    '--format=json',
    '--lint-config=error',
    '--max-problems=10000',
  ],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
    },
  },
);

if (run.error) {
  console.error(`openapi-lint: could not start Redocly: ${run.error.message}`);
  process.exit(1);
}

/**
 * Redocly prints a boxed "Node.js 20 support is ending" notice on every run under Node 20, with no switch
 * to silence it; the engines field of package.json is our answer to it, so it is dropped from the output.
 */
function withoutBoxedNotices(text) {
  const out = [];
  let box = null;
  for (const line of text.split('\n')) {
    if (box === null && line.trimStart().startsWith('╔')) box = [line];
    else if (box !== null) {
      box.push(line);
      if (line.trimStart().startsWith('╚')) {
        if (!box.some((l) => l.includes('Node.js 20'))) out.push(...box);
        box = null;
      }
    } else out.push(line);
  }
  if (box !== null) out.push(...box);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

const stderr = withoutBoxedNotices(run.stderr ?? '').trim();

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  // Not a lint report: Redocly stopped before linting (bad config, missing file). Show everything.
  if (run.stdout.trim()) console.error(run.stdout.trim());
  if (stderr) console.error(stderr);
  console.error(`openapi-lint: Redocly failed (exit ${run.status ?? run.signal})`);
  process.exit(1);
}

if (stderr) console.error(stderr);
for (const problem of report.problems ?? []) {
  const where = problem.location?.[0];
  const file = where?.source?.ref ?? files.join(',');
  const pos = where?.start ? `${where.start.line}:${where.start.col}` : '0:0';
  const severity = problem.severity === 'warn' ? 'warning' : problem.severity;
  const pointer = where?.pointer ? `  (${where.pointer})` : '';
  console.error(`${file}:${pos}  ${severity}  ${problem.ruleId}  ${problem.message}${pointer}`);
}

const errors = report.totals?.errors ?? 0;
const warnings = report.totals?.warnings ?? 0;
if (errors + warnings > 0 || run.status !== 0) {
  console.error(`openapi-lint: ${errors} error(s), ${warnings} warning(s); warnings fail this check too.`);
  process.exit(1);
}
console.log(`openapi-lint: ${files.join(', ')}: no problems.`);
