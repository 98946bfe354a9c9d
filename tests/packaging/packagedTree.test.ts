import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type * as ElectronBuilder from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_EXTERNALS } from '../../main/shell/bundleExternals';
import { ROOT, get, loadBuilderConfig } from './builderConfig';

// `electron-builder --dir` for Linux on the built app (npm test builds first), against a stand-in Electron dist:
// a folder holding a placeholder `electron` executable, so nothing is downloaded. The Electron fuses are off for this
// run only (they are flipped inside the real binary, which the stand-in is not). What is checked is the packaged
// tree: app.asar holds the bundles and the runtime dependencies (hyperdht and its tree), the native addons are
// unpacked beside it where require-addon looks for them, only Linux desktop prebuilds ship, and the main process's
// bundles require only `electron`, Node built-ins and the listed externals. Then the packaged layout is loaded under
// Node: hyperdht from the extracted archive opens a DHT node on loopback (no bootstrap nodes) and closes it.
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as {
  listPackage(archive: string, options: object): string[];
  extractFile(archive: string, file: string): Buffer;
  extractAll(archive: string, dest: string): void;
  statFile(archive: string, file: string): { unpacked?: boolean };
};
/** The resolver require-addon (sodium-native's and udx-native's loader) asks where an addon's file is. */
const resolveAddon = require('bare-addon-resolve') as (
  specifier: string,
  parentURL: URL,
  options: { host: string; conditions: string[]; extensions: string[] },
  readPackage: (packageURL: URL) => unknown,
) => Iterable<URL>;
const run = promisify(execFile);

const BUILT = ['dist-electron/main.js', 'dist-electron/preload.js', 'dist/renderer/index.html'];

/** The production packages of package-lock.json (neither dev nor dev-optional): what electron-builder must ship. */
function runtimePackages(): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.dev !== true && entry.devOptional !== true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .sort();
}

/** The runtime packages that ship Node addons (a prebuilds folder holding a .node file) in the installed tree. */
function addonPackages(packages: readonly string[]): string[] {
  return packages.filter((name) => {
    const prebuilds = join(ROOT, 'node_modules', name, 'prebuilds');
    return (
      existsSync(prebuilds) && readdirSync(prebuilds, { recursive: true }).some((f) => String(f).endsWith('.node'))
    );
  });
}

/** The architectures electron-builder.yml builds for Linux, the platform packaged here. */
function linuxArchs(): string[] {
  const targets = get(loadBuilderConfig(), 'linux', 'target');
  return [...new Set((Array.isArray(targets) ? targets : []).flatMap((target) => get(target, 'arch') as string[]))];
}

/** Every file under a folder, as paths relative to it with forward slashes. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).replace(/\\/g, '/'))
    .sort();
}

const RUNTIME = runtimePackages();
const ADDONS = addonPackages(RUNTIME);
const ARCHS = linuxArchs();

const dir = mkdtempSync(join(tmpdir(), 'lp-packaged-'));
const archive = join(dir, 'out', 'linux-unpacked', 'resources', 'app.asar');
const unpacked = `${archive}.unpacked`;
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
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packaged tree (electron-builder --dir, stand-in Electron)', () => {
  it('the installed tree is what the checks below expect (hyperdht and its two addons, two Linux archs)', () => {
    expect(RUNTIME).toContain('hyperdht');
    expect(ADDONS).toEqual(expect.arrayContaining(['sodium-native', 'udx-native']));
    expect([...ARCHS].sort()).toEqual(['arm64', 'x64']);
  });

  it('app.asar holds the bundles, package.json and the runtime dependency tree (hyperdht’s JavaScript), no dev package', () => {
    for (const file of [
      '/dist-electron/main.js',
      '/dist-electron/preload.js',
      '/dist/renderer/index.html',
      '/package.json',
      '/node_modules/hyperdht/index.js',
      '/node_modules/udx-native/lib/udx.js',
      '/node_modules/sodium-native/index.js',
    ]) {
      expect(files).toContain(file);
    }
    for (const name of RUNTIME) expect(files, name).toContain(`/node_modules/${name}/package.json`);
    const shipped = new Set(files.map((file) => /^\/node_modules\/(@[^/]+\/[^/]+|[^@/][^/]*)\//.exec(file)?.[1]));
    shipped.delete(undefined);
    expect([...shipped].sort()).toEqual(RUNTIME);
  });

  it('every addon is unpacked beside the archive, for each Linux arch, at the file require-addon loads', () => {
    // Electron's require loads `<archive>/node_modules/…/x.node` from `<archive>.unpacked/…` when the header marks it
    // unpacked; the path is the first of require-addon's candidates that exists in the archive.
    const root = pathToFileURL('/app/');
    const readPackage = (url: URL): unknown => {
      const file = url.pathname.slice(root.pathname.length);
      return files.includes(`/${file}`) ? JSON.parse(asar.extractFile(archive, file).toString('utf8')) : null;
    };
    const expected: string[] = [];
    for (const name of ADDONS) {
      for (const arch of ARCHS) {
        const options = { host: `linux-${arch}`, conditions: ['addon', 'node', 'linux', arch], extensions: ['.node'] };
        const candidates = [
          ...resolveAddon('.', new URL(`node_modules/${name}/package.json`, root), options, readPackage),
        ];
        const found = candidates
          .filter((url) => url.protocol === 'file:')
          .map((url) => url.pathname.slice(root.pathname.length))
          .find((file) => files.includes(`/${file}`));
        expect(found, `${name} on linux-${arch}`).toBe(`node_modules/${name}/prebuilds/linux-${arch}/${name}.node`);
        expect(asar.statFile(archive, found!).unpacked, found).toBe(true);
        expected.push(found!);
      }
    }
    // Nothing else leaves the archive: all JavaScript stays under its integrity check.
    expect(filesUnder(unpacked)).toEqual(expected.sort());
  });

  it('no prebuild for android, ios, the Bare runtime or another OS ships, in the archive or beside it', () => {
    const prebuilds = [...files.map((file) => file.slice(1)), ...filesUnder(unpacked)].filter((file) =>
      /\/prebuilds\/[^/]+\/./.test(file),
    );
    expect(prebuilds.length).toBeGreaterThan(0);
    const allowed = new RegExp(`/prebuilds/linux-(${ARCHS.join('|')})/[^/]+\\.node$`);
    expect(prebuilds.filter((file) => !allowed.test(file))).toEqual([]);
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
        if (spec === 'electron' || builtins.has(spec) || BUNDLE_EXTERNALS.includes(spec.split('/')[0]!)) continue;
        if (spec.startsWith('.') && files.includes(posix.join(posix.dirname(bundle), spec))) continue;
        strays.push(`${bundle}: ${spec}`);
      }
    }
    expect(strays).toEqual([]);
    // The scan does read the bundles' requires (it would pass vacuously otherwise).
    expect([...seen]).toEqual(expect.arrayContaining(['electron', 'node:crypto']));
    // Each external ships in the archive, so the bundle's require of it resolves.
    for (const name of BUNDLE_EXTERNALS) expect(files, name).toContain(`/node_modules/${name}/package.json`);
  });

  it('under Node the packaged layout loads: hyperdht opens a loopback DHT node with this machine’s addons', async () => {
    // The archive extracted with its unpacked files is the tree Electron's fs shows the app. A child Node process
    // (nothing else on its module path) requires hyperdht from it; the probe binds 127.0.0.1 and bootstraps nowhere.
    expect(ARCHS).toContain(process.arch);
    const appDir = join(dir, 'app');
    asar.extractAll(archive, appDir);
    const real = realpathSync(appDir);
    const probe = join(ROOT, 'tests/packaging/hyperdhtProbe.mjs');
    const { stdout } = await run(process.execPath, [probe, real], {
      cwd: real,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 90_000,
    });
    const result = JSON.parse(stdout) as {
      ports: number[];
      heldWhileOpen: boolean[];
      freeAfterDestroy: boolean[];
      addons: string[];
      outsideApp: string[];
    };
    expect(result.addons).toEqual(
      ADDONS.map((name) =>
        join(real, 'node_modules', name, 'prebuilds', `linux-${process.arch}`, `${name}.node`),
      ).sort(),
    );
    expect(result.outsideApp).toEqual([]);
    expect(result.ports.every((port) => port > 0)).toBe(true);
    expect(result.heldWhileOpen).toEqual([true, true]);
    expect(result.freeAfterDestroy).toEqual([true, true]);
  }, 120_000);
});
