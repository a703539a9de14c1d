#!/usr/bin/env bash
# `npm test`: static checks, unit + integration tests (vitest: real SQLite files, a real PostgreSQL cluster
# started from Debian's binaries, real HTTP on 127.0.0.1),
# end-to-end tests (Playwright driving Debian's Chromium; Electron tests where an Electron runtime exists),
# then ONE plain summary line that CI reads: `tests: N passed, M failed, K skipped`.
# A failed static check (typecheck, lint, OpenAPI drift) counts as one failed test, so the line never hides it.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=.ci-out
mkdir -p "$OUT"
rm -f "$OUT"/vitest.json "$OUT"/vitest-reliability.json "$OUT"/pw.json "$OUT"/static.txt
t0=$SECONDS
step() { echo; echo "=== $* ($((SECONDS - t0))s)"; }
static() { # name, command...
  local name=$1; shift
  step "$name"
  if "$@"; then echo "ok $name" >>"$OUT/static.txt"; else echo "FAILED $name" >>"$OUT/static.txt"; fi
}

static typecheck npm run -s typecheck
static lint npx eslint --max-warnings 0 .
static format npx prettier --check --log-level warn .
static openapi-drift npx tsx scripts/generate-openapi.ts --check
static openapi-lint node scripts/openapi-lint.mjs
static electronegativity bash .ci/electronegativity.sh

step "PostgreSQL for the company-server tests"
bash scripts/ensure-postgres.sh || echo "FAILED postgresql" >>"$OUT/static.txt"

step "vitest (unit + integration)"
# Two files at a time on two cores: vitest's default is one fewer worker than cores, one here, and most of these
# files wait on child processes, sockets and PostgreSQL (639 s one at a time in CI, 419 s two at a time).
npx vitest run --exclude 'test/reliability/**' --maxWorkers=2 --reporter=default --reporter=json \
  --outputFile.json="$OUT/vitest.json"

# One suite at a time: several of them measure latency under load, and two at once on a 2-core machine
# would measure each other.
step "vitest (reliability suites, short versions; npm run soak runs the long ones)"
npx vitest run test/reliability --no-file-parallelism --reporter=default --reporter=json \
  --outputFile.json="$OUT/vitest-reliability.json"

if [ -f playwright.config.ts ]; then
  step "e2e (Playwright)"
  bash scripts/ensure-chromium.sh || echo "FAILED chromium" >>"$OUT/static.txt"
  npm run -s build:renderer || echo "FAILED build:renderer" >>"$OUT/static.txt"
  # A run that never started (its web server's port taken, a config error) reports no failed test: its exit
  # status must fail the summary all the same.
  PLAYWRIGHT_JSON_OUTPUT_NAME="$OUT/pw.json" npx playwright test --reporter=list,json ||
    echo "FAILED playwright (exit $?)" >>"$OUT/static.txt"
fi

step "summary"
node scripts/test-summary.mjs "$OUT"
rc=$?
echo "total $((SECONDS - t0))s"
exit $rc
