import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type * as ElectronBuilder from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, loadBuilderConfig } from './builderConfig';

// `electron-builder --dir` for Linux on the built app (npm test builds first), against a stand-in Electron dist:
// a folder holding a placeholder `electron` executable, so nothing is downloaded. The Electron fuses are off for this
// run only (they are flipped inside the real binary, which the stand-in is not). What is checked is the packaged
// tree: app.asar holds the bundles, nothing native is left inside the archive (a .node file cannot load from it), and
// the main process's bundles require only `electron`, Node built-ins and the listed externals.
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as {
  listPackage(archive: string, options: object): string[];
  extractFile(archive: string, file: string): Buffer;
};

/** Packages the main bundle leaves external besides electron (vite.config.ts); each must ship unpacked. */
const EXTERNALS: readonly string[] = [];
const BUILT = ['dist-electron/main.js', 'dist-electron/preload.js', 'dist/renderer/index.html'];

const dir = mkdtempSync(join(tmpdir(), 'lp-packaged-'));
const archive = join(dir, 'out', 'linux-unpacked', 'resources', 'app.asar');
let files: string[] = [];

beforeAll(async () => {
  const missing = BUILT.filter((file) => !existsSync(join(ROOT, file)));
  if (missing.length > 0) throw new Error(`run \`npm run build\` first (npm test does): ${missing.join(', ')} missing`);
  const electronDist = join(dir, 'electron-dist');
  mkdirSync(electronDist);
  writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(electronDist, 'electron'), 0o755);
  const { build, Platform } = require('electron-builder') as typeof ElectronBuilder;
  const config = loadBuilderConfig();
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget('dir'),
    publish: 'never',
    config: {
      ...config,
      electronDist,
      electronFuses: null,
      npmRebuild: false,
      publish: null,
      directories: { ...(config.directories as object), output: join(dir, 'out') },
    },
  });
  files = asar.listPackage(archive, { isPack: false }).map((file) => file.replace(/\\/g, '/'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packaged tree (electron-builder --dir, stand-in Electron)', () => {
  it('app.asar holds the main, preload and renderer bundles and package.json', () => {
    for (const file of [
      '/dist-electron/main.js',
      '/dist-electron/preload.js',
      '/dist/renderer/index.html',
      '/package.json',
    ]) {
      expect(files).toContain(file);
    }
    expect(files.some((file) => file.includes('/node_modules/'))).toBe(false);
  });

  it('no native addon inside the archive; the listed externals’ addons are unpacked beside it', () => {
    expect(files.filter((file) => file.endsWith('.node'))).toEqual([]);
    const unpacked = `${archive}.unpacked`;
    for (const name of EXTERNALS) {
      expect(existsSync(join(unpacked, 'node_modules', name)), name).toBe(true);
    }
    if (EXTERNALS.length === 0) expect(existsSync(unpacked) ? readdirSync(unpacked) : []).toEqual([]);
  });

  it('the main bundles require only electron, Node built-ins, the listed externals and each other', () => {
    const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
    const bundles = files.filter((file) => file.startsWith('/dist-electron/') && file.endsWith('.js'));
    expect(bundles.length).toBeGreaterThan(1);
    const strays: string[] = [];
    const seen = new Set<string>();
    for (const bundle of bundles) {
      const text = asar.extractFile(archive, bundle.slice(1)).toString('utf8');
      for (const match of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)|\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
        const spec = match[1] ?? match[2]!;
        seen.add(spec);
        if (spec === 'electron' || builtins.has(spec) || EXTERNALS.includes(spec.split('/')[0]!)) continue;
        if (spec.startsWith('.') && files.includes(posix.join(posix.dirname(bundle), spec))) continue;
        strays.push(`${bundle}: ${spec}`);
      }
    }
    expect(strays).toEqual([]);
    // The scan does read the bundles' requires (it would pass vacuously otherwise).
    expect([...seen]).toEqual(expect.arrayContaining(['electron', 'node:crypto']));
  });
});
