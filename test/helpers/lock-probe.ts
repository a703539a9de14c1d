// Measures, from outside, how long the data file's write lock stays taken: a child process tries
// `BEGIN IMMEDIATE` (busy timeout 0, so it never waits) every millisecond, rolls back at once when it gets the
// lock, and reports the longest stretch during which every try was refused: one holder's longest hold, to
// within the polling period.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const PROBE = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1], { timeout: 0 });
const begin = db.prepare('BEGIN IMMEDIATE');
const rollback = db.prepare('ROLLBACK');
let refusedSince = null, longestMs = 0, holds = 0, tries = 0, stopped = false;
function poll() {
  if (stopped) return;
  const t = performance.now();
  tries++;
  try {
    begin.run();
    rollback.run();
    if (refusedSince !== null) {
      longestMs = Math.max(longestMs, t - refusedSince);
      holds++;
      refusedSince = null;
    }
  } catch (e) {
    if (!String(e.code).startsWith('SQLITE_BUSY')) throw e;
    if (refusedSince === null) refusedSince = t;
  }
  setTimeout(poll, 1);
}
process.stdin.on('end', () => {
  stopped = true;
  if (refusedSince !== null) longestMs = Math.max(longestMs, performance.now() - refusedSince);
  process.stdout.write(JSON.stringify({ longestMs, holds, tries }) + '\\n');
  db.close();
});
process.stdin.resume();
process.stdout.write('probing\\n');
poll();
`;

export interface LockReport {
  /** The longest stretch the lock was refused to every try, in ms. */
  longestMs: number;
  /** Stretches seen (holds by anyone: the importer, the serving process). */
  holds: number;
  tries: number;
}

export interface LockProbe {
  stop(): Promise<LockReport>;
}

export async function probeWriteLock(dbPath: string): Promise<LockProbe> {
  const proc = spawn(process.execPath, ['-e', PROBE, dbPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout! });
  const reports: string[] = [];
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => (line === 'probing' ? resolve() : reports.push(line)));
    proc.once('exit', (code) => reject(new Error(`lock probe exited ${code}`)));
  });
  return {
    stop: () =>
      new Promise<LockReport>((resolve, reject) => {
        proc.once('exit', () => {
          const last = reports.at(-1);
          if (last === undefined) reject(new Error('lock probe reported nothing'));
          else resolve(JSON.parse(last) as LockReport);
        });
        proc.stdin!.end();
      }),
  };
}
