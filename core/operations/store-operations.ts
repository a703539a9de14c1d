// The operations that need only the data file, as the admin CLI runs them: without the service operations
// (quotes, history, carriers, the listener), so the CLI's build loads none of their code (the spreadsheet
// writer, the carrier clients) and starts fast (docs/benchmarks.md, "Startup"). ratecards:import checks city
// names, so the city table is in the build: 289 → 502 KB, no measurable change in start-up (code cache).
import type { OperationOutput } from '../contract/operations';
import { accountOperations } from './accounts';
import { auditOperations } from './audit';
import { calendarOperations } from './calendar';
import { carrierOperations } from './carriers';
import type { StoreContext } from './context';
import { runStoreOperation, type StoreOperation } from './define';
import { keyOperations } from './keys';
import { pricingOperations } from './pricing';
import { rateCardOperations } from './ratecards';
import { settingOperations } from './settings';
import { userOperations } from './users';
import { warehouseOperations } from './warehouses';

const {
  'settings:get': settingsGet,
  'settings:get-one': settingsGetOne,
  'settings:set': settingsSet,
  'settings:reset': settingsReset,
} = settingOperations;

export const STORE_OPERATIONS = {
  ...accountOperations,
  ...carrierOperations,
  ...keyOperations,
  ...rateCardOperations,
  ...userOperations,
  ...warehouseOperations,
  ...auditOperations,
  ...calendarOperations,
  ...pricingOperations,
  'settings:get': settingsGet,
  'settings:get-one': settingsGetOne,
  'settings:set': settingsSet,
  'settings:reset': settingsReset,
};

/** Operations that need only the data file: what the admin CLI can run without a running service. */
export type StoreOperationName = keyof typeof STORE_OPERATIONS;

/** Runs a store operation (the admin CLI, scripts, test set-ups). */
export function runStore<N extends StoreOperationName>(
  ctx: StoreContext,
  name: N,
  raw: unknown,
): Promise<OperationOutput<N>> {
  // The table's entry for a store operation's name is a store operation; TypeScript cannot follow the pairing.
  return runStoreOperation(STORE_OPERATIONS[name] as unknown as StoreOperation<N>, name, ctx, raw);
}
