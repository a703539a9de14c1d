// The SQLite implementation runs its statements synchronously (better-sqlite3); the port is asynchronous so
// that a networked store fits the same core. These two helpers are the seam between the two.

/** The synchronous shape of an asynchronous slice of the port: what a repository here implements. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

/**
 * The port's slice over a synchronous repository: every method answers with a settled promise, and a throw
 * becomes a rejection (a caller that awaits sees the same error either way).
 */
export function promised<T extends object>(repo: Sync<T>): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(repo)) {
    out[name] =
      typeof value === 'function'
        ? (...args: unknown[]): Promise<unknown> => {
            try {
              return Promise.resolve((value as (...a: unknown[]) => unknown)(...args));
            } catch (error) {
              return Promise.reject(error);
            }
          }
        : value;
  }
  return out as T;
}
