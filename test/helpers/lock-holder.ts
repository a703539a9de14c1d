// A second process holding the data file's write lock, as a long admin transaction does: its own
// better-sqlite3 connection opens the file, takes `BEGIN IMMEDIATE` (SQLite's RESERVED lock, in WAL mode the
// one write lock), says so on stdout, holds it for the given time and rolls back.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const HOLDER = `
const Database = require('better-sqlite3');
const [path, holdMs] = process.argv.slice(1);
const db = new Database(path, { timeout: 10000 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\\n');
}, Number(holdMs));
`;

export interface LockHolder {
  proc: ChildProcess;
  /** performance.now() when the child said it held the lock. */
  lockedAt: number;
  /** Resolves with performance.now() when the child has rolled back and released the lock. */
  released: Promise<number>;
}

/** Resolves once the child holds the write lock of `dbPath`. */
export async function holdWriteLock(dbPath: string, holdMs: number): Promise<LockHolder> {
  const proc = spawn(process.execPath, ['-e', HOLDER, dbPath, String(holdMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! });
  let onReleased: (at: number) => void = () => {};
  const released = new Promise<number>((resolve) => (onReleased = resolve));
  const lockedAt = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line === 'locked') resolve(performance.now());
      if (line === 'released') onReleased(performance.now());
    });
    proc.once('exit', (code) => reject(new Error(`lock holder exited ${code} before locking`)));
  });
  proc.once('exit', () => onReleased(performance.now()));
  return { proc, lockedAt, released };
}
