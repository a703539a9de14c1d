// Reads the JSON reports of vitest and Playwright plus the static-check results and prints the one line
// CI understands. Exit code 1 when anything failed or when no test ran at all.
import { readFileSync } from 'node:fs';

const out = process.argv[2] ?? '.ci-out';
const read = (f) => {
  try {
    return readFileSync(`${out}/${f}`, 'utf8');
  } catch {
    return null;
  }
};
let passed = 0;
let failed = 0;
let skipped = 0;
const notes = [];
/** Each failed test by name with its first message line: CI shows only the end of the output. */
const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    // eslint-disable-next-line no-control-regex -- the colour codes vitest puts in its messages
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

for (const [file, name] of [
  ['vitest.json', 'vitest'],
  ['vitest-reliability.json', 'reliability suites'],
]) {
  const v = read(file);
  if (v) {
    const j = JSON.parse(v);
    passed += j.numPassedTests;
    failed += j.numFailedTests;
    skipped += j.numPendingTests + j.numTodoTests;
    // A file that failed to load has no test results but must still fail the run.
    if (j.numFailedTestSuites > 0 && j.numFailedTests === 0) failed += j.numFailedTestSuites;
    notes.push(`${name} ${j.numPassedTests}/${j.numTotalTests}`);
    for (const file of j.testResults ?? []) {
      const path = String(file.name).replace(`${process.cwd()}/`, '');
      if (file.status === 'failed' && (file.assertionResults ?? []).length === 0)
        failures.push(`${path}: ${firstLine(file.message)}`);
      for (const t of file.assertionResults ?? [])
        if (t.status === 'failed')
          failures.push(`${path} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  } else {
    failed += 1;
    notes.push(`${name}: no report`);
  }
}

const p = read('pw.json');
if (p) {
  const report = JSON.parse(p);
  const s = report.stats;
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'unexpected' || t.status === 'flaky') {
          const error = t.results?.find((r) => r.errors?.length)?.errors?.[0]?.message;
          failures.push(`${spec.file}:${spec.line} › ${spec.title} (${t.status}): ${firstLine(error)}`);
        }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  skipped += s.skipped;
  notes.push(`playwright ${s.expected} passed, ${s.skipped} skipped`);
}

for (const line of (read('static.txt') ?? '').split('\n').filter(Boolean)) {
  if (line.startsWith('FAILED')) failed += 1;
  notes.push(line);
}

if (failures.length > 0) console.log(`failed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(notes.join('; '));
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
