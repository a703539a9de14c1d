// What an admin command is and what it gets: parsed options, its positional arguments, and one way to run a
// store operation on a data file opened for this command only.
import type { OperationOutput } from '../../contract/operations';
import type { WallClock } from '../../operations/context';
import type { StoreOperationName } from '../../operations/store-operations';
import type { ServerSecretStore } from '../../settings/server-secrets';
import type { Store } from '../../store';
import type { AdminStdin } from '../admin-io';
import { UsageError } from '../admin-io';
import type { Writable } from 'node:stream';

export const OPTIONS = {
  'data-dir': { type: 'string' },
  database: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  balance: { type: 'string' },
  requests: { type: 'string' },
  rps: { type: 'string' },
  burst: { type: 'string' },
  clear: { type: 'boolean' },
  account: { type: 'string' },
  name: { type: 'string' },
  file: { type: 'string' },
  limit: { type: 'string' },
  enabled: { type: 'string' },
  endpoint: { type: 'string' },
  'base-url': { type: 'string' },
  'timeout-ms': { type: 'string' },
  'client-id': { type: 'string' },
  code: { type: 'string' },
  'volumetric-divisor': { type: 'string' },
  'step-timeout-ms': { type: 'string' },
  'server-key-file': { type: 'string' },
  'new-key-file': { type: 'string' },
  role: { type: 'string' },
  ttl: { type: 'string' },
  user: { type: 'string' },
  city: { type: 'string' },
  'postal-code': { type: 'string' },
  address: { type: 'string' },
  carriers: { type: 'string' },
  boxes: { type: 'string' },
  actor: { type: 'string' },
  action: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  csv: { type: 'boolean' },
  // pricing set | remove (#21)
  desk: { type: 'boolean' },
  carrier: { type: 'string' },
  percent: { type: 'string' },
  add: { type: 'string' },
  packaging: { type: 'string' },
  min: { type: 'string' },
  max: { type: 'string' },
  round: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;
export type Values = { [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

export interface AdminIo {
  stdout: Writable;
  stderr: Writable;
  stdin: AdminStdin;
  /** Defaults to process.env (RATEDESK_DATA_DIR, APPDATA, XDG_CONFIG_HOME). */
  env?: Readonly<Record<string, string | undefined>>;
  clock?: WallClock;
}

export interface Context {
  args: string[];
  values: Values;
  json: boolean;
  io: AdminIo;
  /**
   * Runs one store operation (its input parsed by the operation's own schema) on the data folder, opened for
   * this call and closed again: nothing outlives a command, so it is safe beside a running server.
   */
  run<N extends StoreOperationName>(name: N, input?: unknown): Promise<OperationOutput<N>>;
  /** The data folder opened for the length of async work (a live carrier check), closed after. */
  withStore<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /**
   * The secret store of this run: sealed with the server key given (--server-key-file or the environment),
   * plain text without one. Loaded on first use, so commands that never open the data need no key.
   */
  secrets(): ServerSecretStore;
  /**
   * The data folder opened with another secret store and without its start check (server-key rotate writes
   * the secrets sealed with the new key through it), closed after.
   */
  withSecrets<T>(secrets: ServerSecretStore, work: (store: Store) => Promise<T>): Promise<T>;
  /** The data folder (--data-dir, or the default) and the company database (--database), as given. */
  dataDir: string;
  databaseUrl: string | undefined;
}

export interface Output {
  json: unknown;
  text: string;
  /** 1 when the command ran but what it reports failed (a carrier check that did not pass); 0 by default. */
  exitCode?: number;
}

export interface Command {
  usage: string;
  /** Positional arguments after the command's words (two, or one for a one-word command): [min, max]. */
  args: [number, number];
  options: OptionName[];
  /** Reads the data folder and writes the company database (migrate-to): both options apply at once. */
  readsDeskWritesDatabase?: boolean;
  run(ctx: Context): Output | Promise<Output>;
}

export function required(ctx: Context, option: 'account' | 'name' | 'requests', usage: string): string {
  const value = ctx.values[option];
  if (value === undefined) throw new UsageError(`--${option} is required. Usage: ${usage}`);
  return value;
}

/** Only the shape is checked here (a number at all); ranges are the operation's job, so the UI gets the same rules. */
export function numberOption(option: string, value: string): number {
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw new UsageError(`--${option} must be a number, got "${value}".`);
  return Number(value);
}
