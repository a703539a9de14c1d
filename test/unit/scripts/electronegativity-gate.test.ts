// The CI gate over Electronegativity's SARIF (which has no severities and whose scanner always exits 0):
// run as CI runs it, on the report the scan produced for electron/ on this machine and on variations of it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const GATE = join(root, 'scripts', 'electronegativity-gate.mjs');
const REPORT = join(root, 'test', 'unit', 'electron', 'fixtures', 'electronegativity-1.10.3.sarif');
const ALLOWLIST = join(root, 'build', 'electronegativity-allowlist.json');
const work = mkdtempSync(join(tmpdir(), 'ratedesk-eneg-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Result {
  ruleId: string;
  level: string;
  message: { text: string };
  locations: Array<{
    physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
  }>;
}
const report = JSON.parse(readFileSync(REPORT, 'utf8')) as { runs: Array<{ results: Result[] }> };

function finding(ruleId: string, uri: string, text = 'x', level = 'warning'): Result {
  return {
    ruleId,
    level,
    message: { text },
    locations: [{ physicalLocation: { artifactLocation: { uri }, region: { startLine: 3 } } }],
  };
}

function gate(
  results: Result[],
  allowlist: unknown = JSON.parse(readFileSync(ALLOWLIST, 'utf8')),
): { status: number | null; out: string } {
  const sarif = structuredClone(report);
  sarif.runs[0]!.results = results;
  const sarifPath = join(work, `${Math.random()}.sarif`);
  const allowPath = join(work, `${Math.random()}.json`);
  writeFileSync(sarifPath, JSON.stringify(sarif));
  writeFileSync(allowPath, JSON.stringify(allowlist));
  const r = spawnSync(process.execPath, [GATE, sarifPath, allowPath], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('electronegativity gate', () => {
  it('passes the scan of electron/: every medium-or-higher finding has a written justification', () => {
    const r = spawnSync(process.execPath, [GATE, REPORT], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/0 medium-or-higher unexplained/);
    expect(r.stdout).not.toMatch(/stale/);
  });

  it('fails on what the scan found before the window options were written out (HIGH and MEDIUM)', () => {
    const r = gate([
      ...report.runs[0]!.results,
      finding(
        'CONTEXT_ISOLATION_JS_CHECK',
        'main/windows.ts',
        'Review the use of the contextIsolation option',
      ),
      finding('SANDBOX_JS_CHECK', 'main/windows.ts', 'Use sandbox for untrusted origins'),
      finding('AUXCLICK_JS_CHECK', 'main/windows.ts'),
    ]);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/BLOCKING\s+HIGH\s+CONTEXT_ISOLATION_JS_CHECK main\/windows\.ts:3/);
    expect(r.out).toMatch(/BLOCKING\s+MEDIUM\s+SANDBOX_JS_CHECK/);
    expect(r.out).toMatch(/3 medium-or-higher unexplained/);
  });

  it('matches the allowlist by rule AND file: the same rule elsewhere still blocks', () => {
    const r = gate([
      ...report.runs[0]!.results,
      finding('OPEN_EXTERNAL_JS_CHECK', 'main/security.ts', 'Review the use of openExternal', 'note'),
    ]);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/BLOCKING\s+MEDIUM\s+OPEN_EXTERNAL_JS_CHECK main\/security\.ts/);
  });

  it('lets findings below medium through, and counts a weak-CSP report as LOW', () => {
    const r = gate(
      [
        finding('BLINK_FEATURES_JS_CHECK', 'main/windows.ts'),
        finding('CSP_GLOBAL_CHECK', 'file:///', 'One or more CSP directives detected are vulnerable'),
      ],
      { entries: [] },
    );
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/2 below medium/);
  });

  it('treats a rule it does not know as HIGH (a newer scanner fails closed)', () => {
    const r = gate([finding('SOME_FUTURE_CHECK', 'main/index.ts')], { entries: [] });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/BLOCKING\s+HIGH\s+SOME_FUTURE_CHECK/);
  });

  it('refuses an allowlist entry without a real justification', () => {
    const r = gate(report.runs[0]!.results, {
      entries: [{ rule: 'CSP_GLOBAL_CHECK', file: '*', justification: 'ok' }],
    });
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/justification of at least 40 characters/);
  });

  it('reports allowlist entries that no longer match anything', () => {
    const r = gate([]);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/stale allowlist entry .*PRELOAD_JS_CHECK main\/windows\.ts/);
  });
});
