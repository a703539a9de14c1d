// Reading named entries out of a ZIP (PKWARE APPNOTE 6.3), for the Excel workbooks rate cards come in: the
// central directory is read from the end record, and an entry is inflated only when asked for, to at most
// `maxBytes` (a 10 MB file can hold a gigabyte of zeros). Stored and deflated entries only; no ZIP64, no
// encryption, no multi-disk archives: Excel writes none of them for a sheet of prices, and each is refused
// with a ZipError rather than guessed at. The writer for exports is core/operations/zip.ts.
import { inflateRawSync } from 'node:zlib';

export class ZipError extends Error {
  override readonly name = 'ZipError';
}

interface Entry {
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

export interface ZipReader {
  has(name: string): boolean;
  /** The entry's bytes as UTF-8 text; null when there is no such entry. */
  text(name: string, maxBytes: number): string | null;
}

const END_RECORD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
/** The end record is 22 bytes and may be followed by a comment of up to 65,535. */
const END_SEARCH = 22 + 0xffff;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
}

export function openZip(bytes: Buffer): ZipReader {
  const end = findEndRecord(bytes);
  const count = bytes.readUInt16LE(end + 10);
  const dirSize = bytes.readUInt32LE(end + 12);
  const dirOffset = bytes.readUInt32LE(end + 16);
  if (bytes.readUInt16LE(end + 4) !== 0 || count === 0xffff || dirOffset === 0xffffffff) {
    throw new ZipError('multi-disk or ZIP64 archive');
  }
  if (dirOffset + dirSize > end) throw new ZipError('central directory outside the file');

  const entries = new Map<string, Entry>();
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== CENTRAL) throw new ZipError('damaged central directory');
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }

  return {
    has: (name) => entries.has(name),
    text(name, maxBytes) {
      const entry = entries.get(name);
      if (!entry) return null;
      return read(bytes, entry, maxBytes).toString('utf8');
    },
  };
}

function findEndRecord(bytes: Buffer): number {
  const stop = Math.max(0, bytes.length - END_SEARCH);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes.readUInt32LE(i) === END_RECORD) return i;
  }
  throw new ZipError('no end of central directory');
}

function read(bytes: Buffer, entry: Entry, maxBytes: number): Buffer {
  if (entry.flags & 1) throw new ZipError('encrypted entry');
  if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) throw new ZipError('ZIP64 entry');
  if (entry.size > maxBytes) throw new ZipError('entry too large');
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw new ZipError('damaged local header');
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new ZipError('entry runs past the end of the file');
  if (entry.method === STORED) return data;
  if (entry.method !== DEFLATE) throw new ZipError(`compression method ${entry.method}`);
  try {
    // The declared size is only a claim: the inflater itself stops at the bound.
    return inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (err) {
    throw new ZipError(`cannot inflate: ${(err as Error).message}`);
  }
}
