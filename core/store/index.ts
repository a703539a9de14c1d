// The store as the core sees it: the port (port.ts), and the embedded SQLite implementation that opens it.
// Consumers take `Store` (or a slice) as a capability; only composition (the service, the admin CLI, a data
// folder) chooses the implementation.
export * from './port';
export {
  DataFileRefusedError,
  openStore,
  SqliteStore,
  type RefusalReason,
  type StoreOptions,
} from './sqlite';
