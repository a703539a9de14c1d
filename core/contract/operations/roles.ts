// Who may run what (#20). A clerk quotes, reads history, carriers and balances; an admin also manages
// accounts, keys, limits, carriers, rate cards, users, warehouses and settings. The company server refuses a
// forbidden operation with `forbidden` whatever the desk shows; the renderer hides what the role cannot do,
// from this same table. Renderer-safe: constants only.
import type { DeskRole } from './company';
import type { OperationName } from './index';

/** The role an operation needs. A table over every operation, so a new one cannot be left out. */
export const OPERATION_ROLES = {
  'settings:get': 'clerk',
  'settings:get-one': 'admin',
  'settings:set': 'admin',
  'settings:reset': 'admin',
  'app:info': 'clerk',
  'listener:status': 'clerk',
  'listener:update': 'admin',
  'quote:run': 'clerk',
  'quote:run-origins': 'clerk',
  'quote:export': 'clerk',
  'cities:search': 'clerk',
  'points:search': 'clerk',
  'history:search': 'clerk',
  'history:get': 'clerk',
  'history:rerun': 'clerk',
  'history:export': 'clerk',
  'history:curl': 'clerk',
  'carriers:list': 'clerk',
  'carriers:update': 'admin',
  'carriers:check': 'admin',
  'accounts:list': 'clerk',
  'notifications:list': 'clerk',
  'accounts:create': 'admin',
  'accounts:topup': 'admin',
  'accounts:set-limits': 'admin',
  'accounts:clear-limits': 'admin',
  'accounts:set-threshold': 'admin',
  'keys:list': 'admin',
  'keys:create': 'admin',
  'keys:revoke': 'admin',
  'keys:import': 'admin',
  'keys:export': 'admin',
  'ratecards:list': 'clerk',
  'ratecards:check': 'admin',
  'ratecards:import': 'admin',
  'ratecards:remove': 'admin',
  'ratecards:template': 'admin',
  'users:list': 'admin',
  'users:add': 'admin',
  'users:set-role': 'admin',
  'users:disable': 'admin',
  'users:enable': 'admin',
  'users:remove': 'admin',
  'users:enrol': 'admin',
  'devices:list': 'admin',
  'devices:revoke': 'admin',
  'warehouses:list': 'clerk',
  'warehouses:create': 'admin',
  'warehouses:update': 'admin',
  'warehouses:remove': 'admin',
  'audit:search': 'admin',
  'audit:export': 'admin',
  'pricing:list': 'clerk',
  'pricing:set': 'admin',
  'pricing:remove': 'admin',
  'company:status': 'clerk',
  'company:probe': 'clerk',
  'company:join': 'clerk',
  'company:leave': 'clerk',
  'bulk:parse': 'clerk',
  'bulk:run': 'clerk',
  'bulk:cancel': 'clerk',
  'bulk:export': 'clerk',
  'calendar:info': 'clerk',
  'calendar:import': 'admin',
} as const satisfies Record<OperationName, DeskRole>;

/**
 * Operations the desk answers itself, never sent to a company server (its link, its own /v1 listener); a
 * company server refuses them as `forbidden`.
 */
export const DESK_LOCAL_OPERATIONS = [
  'company:status',
  'company:probe',
  'company:join',
  'company:leave',
  'listener:status',
  'listener:update',
] as const satisfies readonly OperationName[];

export function isDeskLocalOperation(name: string): boolean {
  return (DESK_LOCAL_OPERATIONS as readonly string[]).includes(name);
}

/** True when `role` may run `name`. An admin may run everything a clerk may. */
export function roleAllows(role: DeskRole, name: OperationName): boolean {
  return role === 'admin' || OPERATION_ROLES[name] === 'clerk';
}
