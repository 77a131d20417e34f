import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A ZIP archive written by hand, for tests of what a reader refuses (names, sizes, flags, types). */
export interface TestZipEntry {
  name: string;
  /** The entry's content (what `compressed` inflates to, when given, as far as the CRC goes). */
  data: Buffer;
  /** Deflated unless false. */
  deflate?: boolean;
  /** General-purpose flags (1: encrypted). */
  flags?: number;
  /** Unix file type and permissions, written as a Unix archiver does (0o120777: a symbolic link). */
  unixMode?: number;
  /** The unpacked size both headers claim, to make them lie (default: `data`'s length). */
  claimedSize?: number;
  /** Deflated bytes written as they are instead of deflating `data` (see `deflatedZeros`). */
  compressed?: Buffer;
}

const UNIX_ARCHIVER = 3 << 8;
const ZIP_VERSION = 20;

export function makeZip(entries: readonly TestZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const stored = entry.deflate === false && entry.compressed === undefined;
    const packed = entry.compressed ?? (stored ? entry.data : deflateRawSync(entry.data));
    const method = stored ? 0 : 8;
    const size = entry.claimedSize ?? entry.data.length;
    const checksum = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(ZIP_VERSION, 4);
    local.writeUInt16LE(entry.flags ?? 0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unixMode === undefined ? ZIP_VERSION : UNIX_ARCHIVER | ZIP_VERSION, 4);
    central.writeUInt16LE(ZIP_VERSION, 6);
    central.writeUInt16LE(entry.flags ?? 0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.unixMode ?? 0) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MEBIBYTE = 1024 * 1024;

/**
 * A raw deflate stream that inflates to `count` zero bytes (a zip bomb's content: 300 MB deflate
 * to about 300 KB), built without ever holding `count` bytes: each mebibyte of zeros is deflated
 * once and ended with a full flush, so that copies of it follow one another as blocks of one stream.
 */
export function deflatedZeros(count: number): Buffer {
  const flushed = (bytes: number) => deflateRawSync(Buffer.alloc(bytes), { finishFlush: constants.Z_FULL_FLUSH });
  const mebibyte = flushed(MEBIBYTE);
  const blocks: Buffer[] = Array.from({ length: Math.floor(count / MEBIBYTE) }, () => mebibyte);
  if (count % MEBIBYTE) blocks.push(flushed(count % MEBIBYTE));
  // The final block: empty, with the "last block" bit set.
  blocks.push(deflateRawSync(Buffer.alloc(0)));
  return Buffer.concat(blocks);
}
