// The SQLite implementation runs its statements synchronously (better-sqlite3); the port is asynchronous so
// that a networked store fits the same core. SqliteStore (store.ts) is the seam: it runs a repository's
// method now and answers with a settled promise.

/** The synchronous shape of an asynchronous slice of the port: what a repository here implements. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};
