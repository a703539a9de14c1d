import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * One serving process per data folder: in-flight idempotency claims and balance reservations live in that
 * process's memory. The admin CLI does not take the lock (its writes are single transactions).
 * A lock left by a dead process is taken over.
 */
const heldHere = new Set<string>();

export function lockDataFolder(dir: string): () => void {
  const path = resolve(dir, 'serve.lock');
  if (heldHere.has(path)) throw new Error(`This process is already serving ${dir}.`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldHere.add(path);
      return () => {
        heldHere.delete(path);
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(path, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(`Another RateDesk (pid ${pid}) is already serving ${dir}. Stop it first.`, {
          cause: err,
        });
      }
      unlinkSync(path);
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The pid of the live process serving `dir` now, or undefined. Only reads the lock: for a tool that must not
 * run beside a server (admin migrate-to) yet must not change the folder either.
 */
export function servingPid(dir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(resolve(dir, 'serve.lock'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
}
