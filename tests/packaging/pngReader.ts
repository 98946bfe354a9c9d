import { inflateSync } from 'node:zlib';
import { crc32, PNG_SIGNATURE } from '../../scripts/icon/pngEncoder';

/** What the tests need of a PNG: its header fields and 8-bit RGBA pixels. */
export interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlace: number;
  chunkTypes: string[];
  rgba: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Reads a non-interlaced 8-bit RGBA PNG, checking the signature and every chunk's CRC, and undoing all five
 * scanline filters (so a PNG from any tool decodes, not just ours). Throws on anything else.
 */
export function readPng(file: Buffer): DecodedPng {
  if (!file.subarray(0, 8).equals(Buffer.from(PNG_SIGNATURE))) throw new Error('not a PNG: bad signature');
  const chunkTypes: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    const type = file.toString('ascii', at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    if (crc32(file.subarray(at + 4, at + 8 + length)) !== file.readUInt32BE(at + 8 + length)) {
      throw new Error(`PNG chunk ${type} has a bad CRC`);
    }
    chunkTypes.push(type);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  if (!header) throw new Error('PNG has no IHDR');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [bitDepth, colourType, , , interlace] = [header[8]!, header[9]!, header[10], header[11], header[12]!];
  if (bitDepth !== 8 || colourType !== 6 || interlace !== 0) {
    return { width, height, bitDepth, colourType, interlace, chunkTypes, rgba: new Uint8Array(0) };
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  if (raw.length !== (stride + 1) * height) throw new Error(`PNG image data has ${raw.length} bytes`);
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= 4 ? rgba[y * stride + x - 4]! : 0;
      const up = y > 0 ? rgba[(y - 1) * stride + x]! : 0;
      const upLeft = x >= 4 && y > 0 ? rgba[(y - 1) * stride + x - 4]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter ?? -1];
      if (predictor === undefined) throw new Error(`PNG row ${y} has unknown filter ${filter}`);
      rgba[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return { width, height, bitDepth, colourType, interlace, chunkTypes, rgba };
}
