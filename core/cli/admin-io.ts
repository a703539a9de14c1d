// Terminal plumbing for the admin CLI: reading a secret from stdin or a file, writing a private file,
// rendering tables. Kept apart from admin.ts so the command code reads as a list of commands.
import { closeSync, fchmodSync, fstatSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

/** Bigger than any export of 100,000 keys; a guard against `keys import --file /dev/zero`. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;
const MAX_TTY_LINE = 10_000;

export type AdminStdin = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** A mistake in how the command was typed: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A problem with a file or stream the admin pointed us at: exit code 1, like an AdminError. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

export function readTextFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError(`Cannot read ${path}: ${describeFsError(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new InputError(`Cannot read ${path}: it is a directory.`);
    if (stat.size > MAX_INPUT_BYTES) throw new InputError(`${path} is larger than ${MAX_INPUT_BYTES} bytes.`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a file readable by its owner only. The mode is set on the open descriptor before any byte is
 * written, so even a file that existed with wider permissions never holds our data while readable by others.
 */
export function writePrivateFile(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'w', 0o600);
  } catch (error) {
    throw new InputError(`Cannot write ${path}: ${describeFsError(error)}`);
  }
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file or directory.';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied.';
  if (code === 'EISDIR') return 'it is a directory.';
  return error instanceof Error ? error.message : String(error);
}

/**
 * Input that may carry a secret. A pipe or a redirected file is read to its end; an interactive terminal
 * gets a prompt on stderr and one line read without echo, so the key is not left on the screen.
 */
export async function readSecretInput(stdin: AdminStdin, stderr: Writable, prompt: string): Promise<string> {
  if (stdin.isTTY && typeof stdin.setRawMode === 'function') {
    stderr.write(prompt);
    return readLineWithoutEcho(stdin, stderr);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8');
    size += buf.length;
    if (size > MAX_INPUT_BYTES) throw new InputError(`stdin holds more than ${MAX_INPUT_BYTES} bytes.`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function readLineWithoutEcho(stdin: AdminStdin, stderr: Writable): Promise<string> {
  return new Promise((resolve, reject) => {
    let line = '';
    const finish = (error?: Error): void => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(line);
    };
    const onData = (chunk: Buffer | string): void => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') return finish(new InputError('Cancelled.'));
        if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1);
        else line += ch;
        if (line.length > MAX_TTY_LINE) return finish(new InputError('The line is too long for a key.'));
      }
    };
    stdin.setRawMode?.(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.resume();
  });
}

export interface Column<T> {
  header: string;
  cell(row: T): string;
}

/** Left-aligned columns separated by two spaces; widths in code points (Cyrillic names line up too). */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => c.cell(row)));
  const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i]!))));
  const line = (values: string[]): string =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v + ' '.repeat(widths[i]! - width(v))))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n';
}

function width(text: string): number {
  return [...text].length;
}
