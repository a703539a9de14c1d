// carriers check CODE: the live check of one carrier (core/platform/carrier-check.ts), printed a step per line
// with its time and what it saw, and under a failed step what to look at. The check's code loads only for this
// command (every carrier's protocol client and simulator), so the other commands start without it.
import type { CarrierCheckReport, CarrierCheckStepReport } from '../../contract/operations';
import type { CarrierCode } from '../../carriers/types';
import { parseOperationInput } from '../../operations/define';
import { SettingsView } from '../../settings/view';
import { consoleLogger } from '../../util/logger';
import { UsageError } from '../admin-io';
import { numberOption, type Command } from './command';

const USAGE = 'carriers check CODE [--endpoint production|test|simulator|custom] [--step-timeout-ms N]';

export const carrierCheckCommand: Command = {
  usage: USAGE,
  args: [1, 1],
  options: ['endpoint', 'step-timeout-ms'],
  run: async (ctx) => {
    const v = ctx.values;
    const input = parseOperationInput('carriers:check', {
      code: ctx.args[0]!,
      ...(v.endpoint !== undefined ? { endpoint: v.endpoint } : {}),
      ...(v['step-timeout-ms'] !== undefined
        ? { step_timeout_ms: numberOption('step-timeout-ms', v['step-timeout-ms']) }
        : {}),
    });
    const carriers = await ctx.run('carriers:list');
    const carrier = carriers.find((c) => c.code === input.code);
    if (!carrier) {
      const known = carriers.map((c) => c.code).join(', ');
      throw new UsageError(`no carrier ${JSON.stringify(input.code)}. Known: ${known}.`);
    }
    const { runCarrierCheck } = await import('../../platform/carrier-check');
    const report = await ctx.withStore((store) =>
      runCarrierCheck(carrier.code as CarrierCode, {
        settings: new SettingsView(store.settings),
        pickupCatalogue: store.pickupCatalogue,
        // Carrier codes nobody knows are logged as warnings: on stderr, beside the report.
        logger: consoleLogger(ctx.io.stderr),
        ...(input.endpoint !== undefined ? { endpoint: input.endpoint } : {}),
        ...(input.step_timeout_ms !== undefined ? { stepTimeoutMs: input.step_timeout_ms } : {}),
      }),
    );
    return { json: report, text: reportText(report), exitCode: report.ok ? 0 : 1 };
  },
};

export function reportText(r: CarrierCheckReport): string {
  const where =
    r.target.base_url === null
      ? `the built-in simulator (${r.target.endpoint === 'sandbox' ? 'sandbox mode' : 'endpoint simulator'})`
      : `${r.target.base_url} (endpoint ${r.target.endpoint})`;
  const lines = [`${r.name} (${r.code}) at ${where}:`];
  const width = Math.max(...r.steps.map((s) => s.subject.length), 8);
  for (const step of r.steps) {
    const mark = step.status === 'passed' ? 'ok  ' : step.status === 'failed' ? 'FAIL' : 'skip';
    const ms = step.ms === null ? '' : `${step.ms} ms`;
    const said = step.status === 'failed' ? (step.error ?? '') : step.status === 'passed' ? seen(step) : '';
    lines.push(
      `  ${mark} ${step.kind.padEnd(9)} ${step.subject.padEnd(width)} ${ms.padStart(8)}  ${said}`.trimEnd(),
    );
    if (step.status === 'failed') lines.push(`       what to look at: ${step.hint.en}`);
  }
  if (r.steps.length === 0) lines.push('  (this carrier declares no check steps)');
  const failed = r.steps.find((s) => s.status === 'failed');
  lines.push(
    failed
      ? `FAILED at ${failed.kind} (${failed.subject}) after ${r.ms} ms.`
      : `Passed: ${r.steps.length} steps in ${r.ms} ms.`,
  );
  return `${lines.join('\n')}\n`;
}

/** What a passed step saw, in one short phrase. */
function seen(step: CarrierCheckStepReport): string {
  const m = step.measure;
  if (!m) return '';
  const parts: string[] = [];
  if (m.bytes !== undefined) {
    const of = m.limit_bytes !== undefined ? ` of ${kib(m.limit_bytes)} allowed` : '';
    parts.push(`${kib(m.bytes)}${of}`);
  }
  if (m.items !== undefined) parts.push(`${m.items} ${step.kind === 'route' ? 'rates' : 'records'}`);
  if (m.cheapest_kopecks !== undefined) parts.push(`from ${(m.cheapest_kopecks / 100).toFixed(2)} RUB`);
  if (m.note) parts.push(m.note.en);
  return parts.join(', ');
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;
