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
  } else {
    failed += 1;
    notes.push(`${name}: no report`);
  }
}

const p = read('pw.json');
if (p) {
  const s = JSON.parse(p).stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  skipped += s.skipped;
  notes.push(`playwright ${s.expected} passed, ${s.skipped} skipped`);
}

for (const line of (read('static.txt') ?? '').split('\n').filter(Boolean)) {
  if (line.startsWith('FAILED')) failed += 1;
  notes.push(line);
}

console.log(notes.join('; '));
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
