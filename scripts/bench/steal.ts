// CPU time the hypervisor handed to other guests while the bench ran ("steal" in /proc/stat). On a shared
// host it comes and goes within seconds; a figure measured under heavy steal says more about the neighbours
// than about RateDesk, so the report prints it next to the figures it may have moved.
import { readFileSync } from 'node:fs';

interface CpuTimes {
  steal: number;
  total: number;
}

function cpuTimes(): CpuTimes | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1);
    const ticks = fields.map(Number);
    // user nice system idle iowait irq softirq steal [guest guest_nice, already counted in user/nice]
    return { steal: ticks[7] ?? 0, total: ticks.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return null; // not Linux
  }
}

/** Starts a measurement; the returned function gives the steal since then, in % of all CPU time, or null. */
export function stealMeter(): () => number | null {
  const start = cpuTimes();
  return () => {
    const end = cpuTimes();
    if (!start || !end || end.total === start.total) return null;
    return (100 * (end.steal - start.steal)) / (end.total - start.total);
  };
}

export const fmtSteal = (p: number | null): string => (p === null ? 'n/a' : `${p.toFixed(0)} %`);
