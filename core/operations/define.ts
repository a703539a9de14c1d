// How an operation is defined and run: its schemas come from core/contract/operations (the one source), its
// body from the area's module here. Every host calls operations through invoke() or runStoreOperation(), so
// input is parsed exactly once, by the operation's own schema, and every admin change that succeeds is written
// to the audit log (audit-log.ts).
import {
  operationSchemas,
  type OperationInput,
  type OperationName,
  type OperationOutput,
  type OperationParsedInput,
} from '../contract/operations';
import type { Store } from '../store/port';
import { withAudit } from './audit-log';
import type { ServiceContext, StoreContext, WallClock } from './context';
import { describeIssues, OperationError } from './errors';

export type StoreOperation<N extends OperationName> = {
  needs: 'store';
  run(ctx: StoreContext, input: OperationParsedInput<N>): OperationOutput<N> | Promise<OperationOutput<N>>;
};
export type ServiceOperation<N extends OperationName> = {
  needs: 'service';
  run(ctx: ServiceContext, input: OperationParsedInput<N>): OperationOutput<N> | Promise<OperationOutput<N>>;
};
export type OperationDefinition<N extends OperationName> = StoreOperation<N> | ServiceOperation<N>;
export type OperationTable = { [N in OperationName]: OperationDefinition<N> };

/** An area's definitions, checked against the schemas: a missing or misspelled operation fails to compile. */
export type AreaOperations<N extends OperationName> = { [K in N]: OperationDefinition<K> };

export function parseOperationInput<N extends OperationName>(name: N, raw: unknown): OperationParsedInput<N> {
  const parsed = operationSchemas[name].input.safeParse(raw);
  if (!parsed.success) throw new OperationError('invalid', describeIssues(parsed.error));
  return parsed.data as OperationParsedInput<N>;
}

/** Runs any operation; a service operation needs a ServiceContext. */
export async function invokeOperation<N extends OperationName>(
  table: OperationTable,
  name: N,
  raw: unknown,
  ctx: StoreContext | ServiceContext,
): Promise<OperationOutput<N>> {
  const input = parseOperationInput(name, raw);
  // A correlated union TypeScript cannot follow: the definition of `name` takes the parse of `name`.
  const def = table[name] as OperationDefinition<N>;
  if (def.needs === 'service') {
    if (!('service' in ctx)) throw new Error(`${name} needs a running rating service`);
    return withAudit(name, ctx, input, () => def.run(ctx, input));
  }
  return withAudit(name, ctx, input, () => def.run(ctx, input));
}

/** Runs a store operation (the admin CLI and test set-ups); a bad input rejects like any other failure. */
export async function runStoreOperation<N extends OperationName>(
  def: StoreOperation<N>,
  name: N,
  ctx: StoreContext,
  raw: unknown,
): Promise<OperationOutput<N>> {
  const input = parseOperationInput(name, raw);
  return withAudit(name, ctx, input, () => def.run(ctx, input));
}

/** The classic call shape (store, clock, input) of one store operation, for scripts and test set-ups. */
export function storeCall<N extends OperationName>(
  name: N,
  def: StoreOperation<N>,
): (
  store: Store,
  clock: WallClock,
  ...input: undefined extends OperationInput<N> ? [input?: OperationInput<N>] : [input: OperationInput<N>]
) => Promise<OperationOutput<N>> {
  return (store, clock, ...input) => runStoreOperation(def, name, { store, clock }, input[0]);
}
