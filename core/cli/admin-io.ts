// Terminal plumbing for the admin CLI: reading a secret from stdin or a file, writing a private file,
// rendering tables. Kept apart from admin.ts so the command code reads as a list of commands.
import { closeSync, fchmodSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { MAX_RATE_CARD_TEXT } from '../contract/operations/ratecards';
import type { Readable, Writable } from 'node:stream';

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

/**
 * How much one input may hold, in bytes, checked while it is read: a file's size says nothing for /dev/zero,
 * a named pipe or stdin (0, or no size at all), and before #16 `--file /dev/zero` grew past 1.5 GB.
 */
export interface InputBound {
  bytes: number;
  /** What the input is, for the refusal: "a rate card file". */
  what: string;
}

/**
 * A UTF-8 text of N UTF-16 code units takes at most 3N bytes, so no input longer than that could pass the
 * operation's own limit in characters (zod's .max counts code units).
 */
const utf8Bytes = (characters: number): number => 3 * characters;

export const INPUT_BOUNDS = {
  rateCard: { bytes: utf8Bytes(MAX_RATE_CARD_TEXT), what: 'a rate card file' },
  /** Bigger than an export of 100,000 keys (about 30 MB), or one key. */
  keyImport: { bytes: 64 * 1024 * 1024, what: 'a key or a key export' },
  /** A secret or setting value is at most 10,000 characters (settings:set). */
  secret: { bytes: 64 * 1024, what: 'a secret or setting value' },
} as const satisfies Record<string, InputBound>;

/** Read size: the most read past the bound before the refusal. */
const CHUNK = 64 * 1024;

/**
 * The one reader of admin input (files, named pipes, devices, stdin), bounded while it reads: it stops at the
 * first chunk that crosses `bound.bytes` and refuses with one line, so it never holds more than the bound plus
 * one chunk (a stream's own read-ahead adds at most one more). Bytes that are not UTF-8 become U+FFFD, which
 * the rate-card reader reports with its line.
 */
export async function readInput(
  source: { path: string } | { stream: Readable; name: string },
  bound: InputBound,
): Promise<string> {
  const name = 'path' in source ? source.path : source.name;
  const refuse = (): never => {
    throw new InputError(
      `${name} holds more than ${bound.bytes} bytes, the most ${bound.what} may have: refused, nothing was changed.`,
    );
  };
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > bound.bytes) refuse();
    chunks.push(chunk);
  };
  if ('path' in source) {
    readFileBounded(source.path, bound, take, refuse);
  } else {
    try {
      for await (const chunk of source.stream) {
        take(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8'));
      }
    } finally {
      // Leaving the loop early (the refusal) already destroyed the stream; stdin must not keep the process up.
      source.stream.destroy();
    }
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Synchronous: a named pipe or a device blocks only this command, which has nothing else to do. */
function readFileBounded(
  path: string,
  bound: InputBound,
  take: (chunk: Buffer) => void,
  refuse: () => never,
): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError(`Cannot read ${path}: ${describeFsError(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new InputError(`Cannot read ${path}: it is a directory.`);
    // A regular file says its size: refused before a byte is read.
    if (stat.isFile() && stat.size > bound.bytes) refuse();
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) return;
      take(n === CHUNK ? buf : buf.subarray(0, n));
    }
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
 * Input that may carry a secret. A pipe or a redirected file is read to its end, within `bound`; an
 * interactive terminal gets a prompt on stderr and one line read without echo, so the key is not left on the
 * screen.
 */
export async function readSecretInput(
  stdin: AdminStdin,
  stderr: Writable,
  prompt: string,
  bound: InputBound,
): Promise<string> {
  if (stdin.isTTY && typeof stdin.setRawMode === 'function') {
    stderr.write(prompt);
    return readLineWithoutEcho(stdin, stderr);
  }
  return readInput({ stream: stdin, name: 'stdin' }, bound);
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
