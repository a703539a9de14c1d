/** A running carrier simulator: where it listens and how to stop it. */
export interface SimulatorHandle {
  url: string;
  close(): Promise<void>;
  requestCount(): number;
}
