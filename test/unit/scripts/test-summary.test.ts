// scripts/test-summary.mjs: the one line CI reads, and each failure by name above it (CI shows only the end of
// a run's output, where a failure far up the log is out of sight).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function summarise(files: Record<string, unknown>): { out: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'ratedesk-summary-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files))
    writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
  const r = spawnSync(process.execPath, ['scripts/test-summary.mjs', dir], { encoding: 'utf8' });
  return { out: r.stdout, status: r.status };
}

const vitest = (tests: Array<{ name: string; status: 'passed' | 'failed'; message?: string }>) => ({
  numPassedTests: tests.filter((t) => t.status === 'passed').length,
  numFailedTests: tests.filter((t) => t.status === 'failed').length,
  numPendingTests: 0,
  numTodoTests: 0,
  numFailedTestSuites: 0,
  numTotalTests: tests.length,
  testResults: [
    {
      name: `${process.cwd()}/test/reliability/memory.test.ts`,
      status: tests.some((t) => t.status === 'failed') ? 'failed' : 'passed',
      message: '',
      assertionResults: tests.map((t) => ({
        fullName: t.name,
        status: t.status,
        failureMessages: t.message ? [t.message] : [],
      })),
    },
  ],
});

const playwright = {
  stats: { expected: 1, unexpected: 1, flaky: 0, skipped: 2 },
  suites: [
    {
      title: 'quote.spec.ts',
      specs: [],
      suites: [
        {
          title: 'inner',
          specs: [
            {
              title: 'a quote is shown',
              file: 'quote.spec.ts',
              line: 12,
              tests: [
                { status: 'unexpected', results: [{ errors: [{ message: '\n  Error: timed out\n at x' }] }] },
              ],
            },
            { title: 'fine', file: 'quote.spec.ts', line: 40, tests: [{ status: 'expected', results: [] }] },
          ],
        },
      ],
    },
  ],
};

it('names every failed test with its first message line, colours stripped, then the counting line', () => {
  const { out, status } = summarise({
    'vitest.json': vitest([
      {
        name: 'memory stays bounded',
        status: 'failed',
        message: '\u001b[31mAssertionError: 53 MB\u001b[39m\n at',
      },
      { name: 'answers', status: 'passed' },
    ]),
    'vitest-reliability.json': vitest([{ name: 'soak', status: 'passed' }]),
    'pw.json': playwright,
    'static.txt': 'ok typecheck\nFAILED lint\n',
  });
  expect(status).toBe(1);
  const lines = out.trim().split('\n');
  expect(lines).toEqual([
    'failed:',
    '  ✗ test/reliability/memory.test.ts › memory stays bounded: AssertionError: 53 MB',
    '  ✗ quote.spec.ts:12 › a quote is shown (unexpected): Error: timed out',
    'vitest 1/2; reliability suites 1/1; playwright 1 passed, 2 skipped; ok typecheck; FAILED lint',
    'tests: 3 passed, 3 failed, 2 skipped',
  ]);
});

it('a green run prints no failure list and exits 0', () => {
  const { out, status } = summarise({
    'vitest.json': vitest([{ name: 'answers', status: 'passed' }]),
    'vitest-reliability.json': vitest([{ name: 'soak', status: 'passed' }]),
    'static.txt': 'ok typecheck\n',
  });
  expect(status).toBe(0);
  expect(out).not.toContain('failed:');
  expect(out.trim().split('\n').at(-1)).toBe('tests: 2 passed, 0 failed, 0 skipped');
});
