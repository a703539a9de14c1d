// The operation table: every operation of RateDesk, defined once (schemas in core/contract/operations, bodies
// in the area modules here). The desk's IPC dispatch and the admin CLI both run operations from this table.
import type { OperationName, OperationOutput } from '../contract/operations';
import { accountOperations } from './accounts';
import { auditOperations } from './audit';
import { bulkOperations } from './bulk';
import { calendarOperations } from './calendar';
import { carrierOperations } from './carriers';
import { companyOperations } from './company';
import type { ServiceContext, StoreContext } from './context';
import { invokeOperation, type OperationTable } from './define';
import { historyOperations } from './history';
import { keyOperations } from './keys';
import { pointOperations } from './points';
import { originOperations } from './origins';
import { pricingOperations } from './pricing';
import { quoteOperations } from './quotes';
import { rateCardOperations } from './ratecards';
import { settingOperations } from './settings';
import { userOperations } from './users';
import { warehouseOperations } from './warehouses';

export const OPERATIONS = {
  ...settingOperations,
  ...quoteOperations,
  ...historyOperations,
  ...carrierOperations,
  ...accountOperations,
  ...keyOperations,
  ...rateCardOperations,
  ...userOperations,
  ...warehouseOperations,
  ...originOperations,
  ...auditOperations,
  ...companyOperations,
  ...bulkOperations,
  ...calendarOperations,
  ...pointOperations,
  ...pricingOperations,
} satisfies OperationTable;

/** Parses `raw` with the operation's schema, then runs it. */
export function invoke<N extends OperationName>(
  name: N,
  raw: unknown,
  ctx: StoreContext | ServiceContext,
): Promise<OperationOutput<N>> {
  return invokeOperation(OPERATIONS, name, raw, ctx);
}

export { runStore, STORE_OPERATIONS, type StoreOperationName } from './store-operations';

export type { ServiceContext, ServiceParts, StoreContext, WallClock } from './context';
export { systemWallClock } from './context';
export { describeIssues, isOperationError, OperationError, type OperationErrorCode } from './errors';
export * from './accounts';
export * from './keys';
export * from './settings';
export * from './users';
export * from './warehouses';
export * from './pricing';
export { AUDIT_DESCRIBERS, AUDIT_READ_ONLY, auditActor } from './audit-log';
