// The bench's other processes: servers (scripts/bench/server.ts in one of its modes) and helpers (carrier
// simulators), each a TypeScript script in a process of its own that announces itself with one JSON line.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  proc: ChildProcess;
  port: number;
  keys: string[];
  stderr: string[];
}

export async function startServer(mode: string, arg = ''): Promise<Child> {
  const { proc, line, stderr } = await startChild('scripts/bench/server.ts', [mode, arg]);
  const { port, keys } = JSON.parse(line) as { port: number; keys: string[] };
  return { proc, port, keys, stderr };
}

/** A TypeScript script in its own process; resolves with the first line it prints (and, parsed, its url). */
export async function startChild(
  script: string,
  args: string[],
): Promise<{ proc: ChildProcess; line: string; url: string; stderr: string[] }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => stderr.push(l));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) =>
      reject(new Error(`${script} ${args.join(' ')} exited ${code}: ${stderr.join('\n')}`)),
    );
  });
  return { proc, line, url: (JSON.parse(line) as { url?: string }).url ?? '', stderr };
}

export async function stopChild(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}
