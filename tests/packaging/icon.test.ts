import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ICON_LAYERS } from '../../scripts/icon/iconDesign';
import { iconSvg } from '../../scripts/icon/iconSvg';
import { crc32, encodePng } from '../../scripts/icon/pngEncoder';
import { rasterize, signedDistance } from '../../scripts/icon/rasterize';
import { readPng } from './pngReader';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(ROOT + path);
const alphaAt = (rgba: Uint8Array, size: number, x: number, y: number) => rgba[(y * size + x) * 4 + 3];

describe('PNG encoder', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('round-trips pixels through IHDR, IDAT and IEND with valid CRCs', () => {
    const rgba = Uint8Array.from({ length: 3 * 2 * 4 }, (_, i) => (i * 37) & 0xff);
    const png = readPng(encodePng(3, 2, rgba));
    expect(png).toMatchObject({ width: 3, height: 2, bitDepth: 8, colourType: 6, interlace: 0 });
    expect(png.chunkTypes).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([...png.rgba]).toEqual([...rgba]);
  });

  it('refuses a pixel buffer of the wrong size or a zero size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(15))).toThrow(/expected 16 bytes/);
    expect(() => encodePng(0, 2, new Uint8Array(0))).toThrow(RangeError);
  });

  it('a corrupted chunk fails the CRC check', () => {
    const file = encodePng(1, 1, Uint8Array.of(1, 2, 3, 4));
    file[20] = (file[20] ?? 0) ^ 0xff; // inside IHDR's data
    expect(() => readPng(file)).toThrow(/IHDR has a bad CRC/);
  });
});

describe('icon shapes', () => {
  it('signed distances are negative inside, zero on the edge and positive outside', () => {
    const circle = { kind: 'circle', cx: 10, cy: 10, r: 5 } as const;
    expect(signedDistance(circle, 10, 10)).toBe(-5);
    expect(signedDistance(circle, 15, 10)).toBe(0);
    expect(signedDistance(circle, 18, 10)).toBe(3);
    const rect = { kind: 'roundedRect', x: 0, y: 0, size: 100, radius: 20 } as const;
    expect(signedDistance(rect, 50, 50)).toBe(-50);
    expect(signedDistance(rect, 50, -10)).toBe(10);
    // The corner is rounded: (0,0) lies outside by (√2 − 1)·20.
    expect(signedDistance(rect, 0, 0)).toBeCloseTo((Math.SQRT2 - 1) * 20, 9);
    const capsule = { kind: 'capsule', from: [0, 0], to: [10, 0], r: 2 } as const;
    expect(signedDistance(capsule, 5, 0)).toBe(-2);
    expect(signedDistance(capsule, 13, 0)).toBe(1);
  });
});

describe('build/icon.png', () => {
  const png = readPng(read('build/icon.png'));

  it('is a 512×512 8-bit RGBA PNG, the size electron-builder derives .ico and .icns from', () => {
    expect(png).toMatchObject({ width: 512, height: 512, bitDepth: 8, colourType: 6, interlace: 0 });
  });

  it('has a transparent margin and an opaque tile', () => {
    expect(alphaAt(png.rgba, 512, 0, 0)).toBe(0);
    expect(alphaAt(png.rgba, 512, 511, 511)).toBe(0);
    expect(alphaAt(png.rgba, 512, 20, 256)).toBe(0);
    expect(alphaAt(png.rgba, 512, 256, 256)).toBe(255);
    expect(alphaAt(png.rgba, 512, 100, 256)).toBe(255);
  });

  it('is what scripts/makeIcon.ts draws (rerun it after changing the design)', () => {
    const drawn = rasterize(ICON_LAYERS, 512);
    // Off by one at most: floating-point maths may round an edge pixel differently on another Node version.
    let worst = 0;
    for (let i = 0; i < drawn.length; i++) worst = Math.max(worst, Math.abs((drawn[i] ?? 0) - (png.rgba[i] ?? 0)));
    expect(png.rgba.length).toBe(drawn.length);
    expect(worst).toBeLessThanOrEqual(1);
  });
});

describe('build/icon.svg', () => {
  it('is the same design as the PNG, as a 512-unit SVG', () => {
    const svg = read('build/icon.svg').toString('utf8');
    expect(svg).toBe(iconSvg(ICON_LAYERS, 'LAN Party'));
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="512" height="512" viewBox="0 0 512 512">/,
    );
    expect(svg.match(/<(rect|circle|line) /g)).toHaveLength(ICON_LAYERS.length);
  });
});
