// The store port's slices for company desks (#20): desk users with their codes and devices, named warehouses,
// the audit log. Declared beside core/store/port.ts, which puts them on Store, so the port file stays readable.
import type {
  AuditQuery,
  AuditRow,
  DeviceAuthRow,
  DeviceRow,
  NewAudit,
  NewDevice,
  NewWarehouse,
  RedeemResult,
  UserRole,
  UserRow,
  WarehouseRow,
} from './rows';

/** Desk users, their enrolment codes and devices (#20). Names are unique, compared case-insensitively. */
export interface UsersStore {
  /** 'taken' when a user of that name exists. */
  create(name: string, role: UserRole, now: string): Promise<UserRow | 'taken'>;
  list(): Promise<UserRow[]>;
  byName(name: string): Promise<UserRow | undefined>;
  setRole(id: number, role: UserRole): Promise<UserRow | undefined>;
  setDisabled(id: number, disabled: boolean, now: string): Promise<UserRow | undefined>;
  /** Deletes the user with their devices and codes; false when there was none. */
  remove(id: number): Promise<boolean>;
  /** Stores a code's digest for the user, replacing an unused earlier one. */
  putEnrolmentCode(userId: number, codeDigest: string, expiresAt: string, now: string): Promise<void>;
  /**
   * Trades a code for a device in one atomic write: a code works once (a second redeem is `used`, even
   * racing on another instance), not after it expires, and not for a disabled user.
   */
  redeemEnrolmentCode(codeDigest: string, now: string, device: NewDevice): Promise<RedeemResult>;
  /** The device a token digest belongs to, when it is active and its user enabled. */
  deviceAuth(tokenDigest: string): Promise<DeviceAuthRow | undefined>;
  devices(userId?: number): Promise<DeviceRow[]>;
  revokeDevice(id: string, now: string): Promise<'revoked' | 'already' | 'missing'>;
  /** Best effort, at most once a minute per device is enough (callers throttle). */
  touchDevice(id: string, now: string): Promise<void>;
}

/** Named warehouses, the origins a quote is asked from (#20). Names are unique, case-insensitively. */
export interface WarehousesStore {
  list(): Promise<WarehouseRow[]>;
  byId(id: number): Promise<WarehouseRow | undefined>;
  create(w: NewWarehouse, now: string): Promise<WarehouseRow | 'taken'>;
  update(id: number, w: NewWarehouse, now: string): Promise<WarehouseRow | 'taken' | undefined>;
  remove(id: number): Promise<WarehouseRow | undefined>;
}

/** Who changed what (#20): append-only. Newest first. */
export interface AuditStore {
  append(entry: NewAudit): Promise<void>;
  search(query: AuditQuery): Promise<AuditRow[]>;
}
