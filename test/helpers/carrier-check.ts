// What the carriers' live-check tests share: a port nobody listens on (a dead host), and the steps run the way
// core/platform/carrier-check.ts runs them — in order, each bounded, stopping at the first failure — with what
// each saw or said.
import { createServer } from 'node:net';
import type { CarrierCheckStep, CheckMeasure } from '../../core/carriers/check';

export interface StepResult {
  kind: string;
  ok: boolean;
  measure?: CheckMeasure;
  error?: string;
  ms: number;
}

export async function runSteps(
  steps: readonly CarrierCheckStep[],
  stepTimeoutMs = 15_000,
): Promise<StepResult[]> {
  const seen: StepResult[] = [];
  for (const step of steps) {
    const started = performance.now();
    try {
      const measure = await step.run(AbortSignal.timeout(stepTimeoutMs));
      seen.push({ kind: step.kind, ok: true, measure, ms: performance.now() - started });
    } catch (err) {
      seen.push({
        kind: step.kind,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        ms: performance.now() - started,
      });
      break;
    }
  }
  return seen;
}

/** A loopback port that was free a moment ago: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}
