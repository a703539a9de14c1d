/** A running carrier simulator: where it listens and how to stop it. */
export interface SimulatorHandle {
  url: string;
  close(): Promise<void>;
  requestCount(): number;
}

/**
 * Answers `latencyMs` after the request arrived, the simulator's own work included: a benchmark at 20 ms then
 * measures 20 ms of carrier time, not 20 ms plus the simulator's CPU. Pending timers are tracked so close()
 * can drop them.
 */
export function answerAfter(
  latencyMs: number,
  arrivedAt: number,
  timers: Set<NodeJS.Timeout>,
  write: () => void,
): void {
  const wait = latencyMs - (performance.now() - arrivedAt);
  if (latencyMs <= 0 || wait <= 0) {
    write();
    return;
  }
  const timer = setTimeout(() => {
    timers.delete(timer);
    write();
  }, wait);
  timers.add(timer);
}
