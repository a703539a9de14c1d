// Plumbing shared by the admin operations: the clock they need, input parsing, account lookup.
import type { z } from 'zod';
import type { Store } from '../store';
import type { AccountRow } from '../store/accounts';
import { AdminError, describeIssues } from './errors';

/** Only the wall clock: admin operations stamp rows, they never measure durations. */
export interface WallClock {
  now(): Date;
}

export const systemWallClock: WallClock = { now: () => new Date() };

/** Validates external input (CLI arguments, IPC payloads) and turns a failure into AdminError('invalid'). */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new AdminError('invalid', describeIssues(r.error));
  return r.data;
}

export function requireAccount(store: Store, name: string): AccountRow {
  const row = store.accounts.byName(name);
  if (!row)
    throw new AdminError('not_found', `No account named ${JSON.stringify(name)}. See "accounts list".`);
  return row;
}
