// Fails CI on any Electronegativity finding of MEDIUM severity or higher that build/electronegativity-allowlist.json
// does not explain. Electronegativity exits 0 whatever it finds, and its SARIF carries no severity (only
// "warning", or "note" for manual-review items), so the severity of each rule comes from the table below,
// read from the checks of @doyensec/electronegativity 1.10.3 (finder/checks/**). A rule the table does not
// know counts as HIGH, so a newer scanner fails closed until the table is updated.
// Usage: node scripts/electronegativity-gate.mjs <report.sarif> [allowlist.json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCANNER_VERSION = '1.10.3';
const RANK = { INFORMATIONAL: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

/** The highest severity each rule of 1.10.3 can report. */
export const RULE_SEVERITY = {
  AFFINITY_GLOBAL_CHECK: 'MEDIUM',
  AFFINITY_HTML_CHECK: 'MEDIUM',
  AFFINITY_JS_CHECK: 'MEDIUM',
  ALLOWPOPUPS_HTML_CHECK: 'LOW',
  AUXCLICK_HTML_CHECK: 'MEDIUM',
  AUXCLICK_JS_CHECK: 'MEDIUM',
  AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK: 'HIGH',
  BLINK_FEATURES_HTML_CHECK: 'LOW',
  BLINK_FEATURES_JS_CHECK: 'LOW',
  CERTIFICATE_ERROR_EVENT_JS_CHECK: 'MEDIUM',
  CERTIFICATE_VERIFY_PROC_JS_CHECK: 'MEDIUM',
  CONTEXT_ISOLATION_JS_CHECK: 'HIGH',
  CSP_GLOBAL_CHECK: 'MEDIUM',
  CSP_HTML_CHECK: 'INFORMATIONAL',
  CSP_JS_CHECK: 'INFORMATIONAL',
  CUSTOM_ARGUMENTS_JSON_CHECK: 'MEDIUM',
  CUSTOM_ARGUMENTS_JS_CHECK: 'MEDIUM',
  DANGEROUS_FUNCTIONS_JS_CHECK: 'MEDIUM',
  ELECTRON_VERSION_JSON_CHECK: 'INFORMATIONAL',
  EXPERIMENTAL_FEATURES_HTML_CHECK: 'LOW',
  EXPERIMENTAL_FEATURES_JS_CHECK: 'LOW',
  HTTP_RESOURCES_HTML_CHECK: 'MEDIUM',
  HTTP_RESOURCES_JS_CHECK: 'MEDIUM',
  HTTP_RESOURCES_WITH_NODE_INTEGRATION_GLOBAL_CHECK: 'MEDIUM',
  INSECURE_CONTENT_HTML_CHECK: 'MEDIUM',
  INSECURE_CONTENT_JS_CHECK: 'MEDIUM',
  LIMIT_NAVIGATION_GLOBAL_CHECK: 'HIGH',
  LIMIT_NAVIGATION_JS_CHECK: 'HIGH',
  NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK: 'HIGH',
  NODE_INTEGRATION_HTML_CHECK: 'HIGH',
  NODE_INTEGRATION_JS_CHECK: 'HIGH',
  OPEN_EXTERNAL_JS_CHECK: 'MEDIUM',
  PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK: 'MEDIUM',
  PERMISSION_REQUEST_HANDLER_JS_CHECK: 'MEDIUM',
  PRELOAD_JS_CHECK: 'MEDIUM',
  PROTOCOL_HANDLER_JS_CHECK: 'MEDIUM',
  REMOTE_MODULE_JS_CHECK: 'MEDIUM',
  SANDBOX_JS_CHECK: 'MEDIUM',
  SECURITY_WARNINGS_DISABLED_JSON_CHECK: 'INFORMATIONAL',
  SECURITY_WARNINGS_DISABLED_JS_CHECK: 'INFORMATIONAL',
  WEB_SECURITY_HTML_CHECK: 'MEDIUM',
  WEB_SECURITY_JS_CHECK: 'MEDIUM',
};

/** CSP_GLOBAL_CHECK is MEDIUM for "no CSP at all" and LOW for a CSP it considers weak. */
export function severityOf(ruleId, message) {
  if (ruleId === 'CSP_GLOBAL_CHECK' && !/No CSP has been detected/i.test(message)) return 'LOW';
  return RULE_SEVERITY[ruleId] ?? 'HIGH';
}

/** Findings of the SARIF report: rule, file (relative to the scanned folder, '*' for global ones), line, message. */
export function readFindings(sarif) {
  const run = sarif?.runs?.[0];
  if (!run || !Array.isArray(run.results))
    throw new Error('not an Electronegativity SARIF report (no runs[0].results)');
  return run.results.map((r) => {
    const location = r.locations?.[0]?.physicalLocation;
    const uri = location?.artifactLocation?.uri ?? 'file:///';
    const message = r.message?.text ?? '';
    return {
      rule: r.ruleId,
      file: uri === 'file:///' ? '*' : uri,
      line: location?.region?.startLine ?? 0,
      message,
      manualReview: r.level === 'note',
      severity: severityOf(r.ruleId, message),
    };
  });
}

/** Checks the allowlist's shape: every entry names a rule and a file and says why in real words. */
export function readAllowlist(doc) {
  if (!doc || !Array.isArray(doc.entries)) throw new Error('allowlist: expected { "entries": [...] }');
  return doc.entries.map((e, i) => {
    if (typeof e.rule !== 'string' || typeof e.file !== 'string')
      throw new Error(`allowlist entry ${i}: "rule" and "file" are required`);
    if (typeof e.justification !== 'string' || e.justification.trim().length < 40) {
      throw new Error(
        `allowlist entry ${i} (${e.rule}): a written justification of at least 40 characters is required`,
      );
    }
    return e;
  });
}

export function gate(findings, allowlist) {
  const blocking = [];
  const justified = [];
  const used = new Set();
  for (const f of findings) {
    if (RANK[f.severity] < RANK.MEDIUM) continue;
    const entry = allowlist.find((e) => e.rule === f.rule && e.file === f.file);
    if (entry) {
      used.add(entry);
      justified.push({ ...f, justification: entry.justification });
    } else blocking.push(f);
  }
  const stale = allowlist.filter((e) => !used.has(e));
  return { blocking, justified, stale };
}

function main() {
  const [
    sarifPath,
    allowlistPath = join(
      dirname(fileURLToPath(import.meta.url)),
      '..',
      'build',
      'electronegativity-allowlist.json',
    ),
  ] = process.argv.slice(2);
  if (!sarifPath) {
    console.error('usage: node scripts/electronegativity-gate.mjs <report.sarif> [allowlist.json]');
    return 2;
  }
  const sarif = JSON.parse(readFileSync(sarifPath, 'utf8'));
  const version = sarif.runs?.[0]?.tool?.driver?.version;
  if (version !== SCANNER_VERSION) {
    console.warn(
      `note: report from Electronegativity ${version}; the severity table is for ${SCANNER_VERSION} (unknown rules count as HIGH)`,
    );
  }
  const findings = readFindings(sarif);
  const { blocking, justified, stale } = gate(
    findings,
    readAllowlist(JSON.parse(readFileSync(allowlistPath, 'utf8'))),
  );

  const where = (f) => `${f.file}${f.line ? `:${f.line}` : ''}`;
  for (const f of justified)
    console.log(`justified  ${f.severity.padEnd(6)} ${f.rule} ${where(f)}\n           ${f.justification}`);
  for (const f of blocking)
    console.log(`BLOCKING   ${f.severity.padEnd(6)} ${f.rule} ${where(f)}: ${f.message}`);
  for (const e of stale)
    console.log(`stale allowlist entry (no such finding any more; remove it): ${e.rule} ${e.file}`);
  const below = findings.filter((f) => RANK[f.severity] < RANK.MEDIUM).length;
  console.log(
    `electronegativity: ${findings.length} finding(s): ${justified.length} medium-or-higher justified, ` +
      `${blocking.length} medium-or-higher unexplained, ${below} below medium`,
  );
  return blocking.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
