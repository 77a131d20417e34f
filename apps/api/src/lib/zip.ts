import { inflateRawSync } from 'node:zlib';

/**
 * A ZIP archive read without trusting it (an .xlsx file is one; so is a SCORM package): its entries
 * from the central directory, each name checked, each entry's data actually inflated under a budget,
 * so that a small file that would unpack to gigabytes (a "zip bomb") or hold a path out of its folder
 * is refused before any other reader unpacks it.
 */

export interface ZipLimits {
  /** Entries at most. */
  entries: number;
  /** Bytes all entries unpack to, at most (counted while unpacking, not taken from the headers). */
  unpackedBytes: number;
}

export interface ZipEntry {
  name: string;
  /** Bytes unpacked, as actually inflated. */
  size: number;
}

export type ZipProblem = 'not-zip' | 'corrupt' | 'too-many-entries' | 'too-large' | 'unsafe-name' | 'encrypted';

export class ZipRefused extends Error {
  constructor(readonly problem: ZipProblem) {
    super(`zip refused: ${problem}`);
  }
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
const STORED = 0;
const DEFLATED = 8;

/** Whether the bytes begin as a ZIP archive does. */
export const looksLikeZip = (bytes: Buffer): boolean => bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL_HEADER;

/** A name that stays inside the folder it is unpacked into: relative, no '..' part, no drive or NUL. */
export function safeEntryName(name: string): boolean {
  if (name === '' || name.includes('\0') || name.includes('\\')) return false;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return false;
  return name.split('/').every((part) => part !== '..');
}

function endOfDirectory(zip: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65 535.
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  for (let at = zip.length - 22; at >= lowest; at--) if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  throw new ZipRefused('corrupt');
}

/** Every entry of the archive, checked and inflated within `limits`; throws `ZipRefused`. */
export function inspectZip(zip: Buffer, limits: ZipLimits): ZipEntry[] {
  if (!looksLikeZip(zip)) throw new ZipRefused('not-zip');
  try {
    return readEntries(zip, limits);
  } catch (error) {
    if (error instanceof ZipRefused) throw error;
    // Offsets outside the buffer, or data zlib cannot inflate.
    if (error instanceof RangeError && /maxOutputLength|Cannot create a Buffer/.test(error.message)) {
      throw new ZipRefused('too-large');
    }
    throw new ZipRefused('corrupt');
  }
}

function readEntries(zip: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = endOfDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  if (count > limits.entries) throw new ZipRefused('too-many-entries');
  let at = zip.readUInt32LE(end + 16);
  let budget = limits.unpackedBytes;
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) throw new ZipRefused('corrupt');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!safeEntryName(name)) throw new ZipRefused('unsafe-name');
    if (flags & 1) throw new ZipRefused('encrypted');
    if (zip.readUInt32LE(localAt) !== LOCAL_HEADER) throw new ZipRefused('corrupt');
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    if (dataAt + packed > zip.length) throw new ZipRefused('corrupt');
    const data = zip.subarray(dataAt, dataAt + packed);
    let size: number;
    if (method === STORED) size = packed;
    else if (method === DEFLATED) size = inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
    else throw new ZipRefused('corrupt');
    if (size > budget) throw new ZipRefused('too-large');
    budget -= size;
    entries.push({ name, size });
  }
  return entries;
}
