import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { DEEP_LINK_SCHEME } from '../../shared/deepLink';
import { BUNDLE_EXTERNALS } from '../../main/shell/bundleExternals';
import { ROOT, builderFileFilters, get, loadBuilderConfig, validateBuilderConfig } from './builderConfig';

const builderRequire = createRequire(import.meta.url);

const config = loadBuilderConfig();

/** Target names of a platform section, whether written as strings or `{ target, arch }` objects. */
function targetNames(platform: string): string[] {
  const target = get(config, platform, 'target');
  const list = Array.isArray(target) ? target : [target];
  return list.map((entry) => (typeof entry === 'string' ? entry : String(get(entry, 'target'))));
}

describe('electron-builder.yml against electron-builder’s schema', () => {
  it('is valid', () => {
    expect(validateBuilderConfig(config)).toEqual([]);
  });

  it('the validator does catch mistakes (a misspelt NSIS option, a fuse given as a string)', () => {
    const misspelt = { ...config, nsis: { ...(config.nsis as object), perMachin: true } };
    expect(validateBuilderConfig(misspelt).map((e) => e.params)).toContainEqual({ additionalProperty: 'perMachin' });
    const badFuse = { ...config, electronFuses: { ...(config.electronFuses as object), runAsNode: 'false' } };
    expect(validateBuilderConfig(badFuse).some((e) => e.instancePath === '/electronFuses/runAsNode')).toBe(true);
  });
});

describe('identity', () => {
  it('names the app and its id', () => {
    expect(config.appId).toBe('net.lanparty.app');
    expect(config.productName).toBe('LAN Party');
  });

  it('files the app under games on every platform', () => {
    expect(get(config, 'mac', 'category')).toBe('public.app-category.games');
    expect(get(config, 'linux', 'category')).toBe('Game');
  });

  it('uses build/icon.png as the icon, and it exists', () => {
    expect(config.icon).toBe('build/icon.png');
    expect(existsSync(`${ROOT}build/icon.png`)).toBe(true);
  });
});

describe('targets and artifact names', () => {
  it('builds NSIS on Windows, dmg and zip on macOS, AppImage and deb on Linux', () => {
    expect(targetNames('win')).toEqual(['nsis']);
    expect(targetNames('mac').sort()).toEqual(['dmg', 'zip']);
    expect(targetNames('linux').sort()).toEqual(['AppImage', 'deb']);
  });

  it('names every artifact without spaces', () => {
    const patterns = [
      config.artifactName,
      ...['win', 'mac', 'linux', 'nsis', 'dmg', 'deb', 'appImage'].map((section) =>
        get(config, section, 'artifactName'),
      ),
    ].filter((pattern) => pattern !== undefined);
    expect(config.artifactName).toBe('${name}-${version}-${os}-${arch}.${ext}');
    for (const pattern of patterns) {
      expect(pattern).toMatch(/^[^\s]+$/);
      // ${productName} is "LAN Party": it would bring the space back.
      expect(pattern).not.toContain('${productName}');
    }
  });
});

describe('Windows installer', () => {
  it('installs per machine with a wizard (elevated), including build/installer.nsh', () => {
    expect(get(config, 'nsis', 'perMachine')).toBe(true);
    expect(get(config, 'nsis', 'oneClick')).toBe(false);
    expect(get(config, 'nsis', 'include')).toBe('build/installer.nsh');
    expect(existsSync(`${ROOT}build/installer.nsh`)).toBe(true);
  });
});

describe('macOS', () => {
  it('explains Local Network access in Info.plist (without it macOS denies silently)', () => {
    const text = get(config, 'mac', 'extendInfo', 'NSLocalNetworkUsageDescription');
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^LAN Party .*local network.*\.$/);
  });
});

describe('room links (lanparty://)', () => {
  it('registers the scheme the app parses, once', () => {
    expect(config.protocols).toEqual([{ name: 'LAN Party room link', schemes: [DEEP_LINK_SCHEME] }]);
  });

  it('the validator catches a protocol without schemes (the check can fail)', () => {
    const broken = { ...config, protocols: [{ name: 'LAN Party room link' }] };
    expect(validateBuilderConfig(broken).some((e) => e.instancePath.startsWith('/protocols'))).toBe(true);
  });
});

describe('update feed', () => {
  const publish = config.publish as Array<Record<string, unknown>>;

  it('publishes to a generic feed whose URL is LAN_PARTY_UPDATE_URL at build time', () => {
    expect(publish).toEqual([{ provider: 'generic', url: '${env.LAN_PARTY_UPDATE_URL}' }]);
  });

  it('electron-builder expands the URL from the environment, and refuses it unset (so `npm run dist` sets it)', () => {
    const { expandMacro } = builderRequire('app-builder-lib/out/util/macroExpander') as {
      expandMacro(pattern: string, arch: string | null, appInfo: object): string;
    };
    const url = String(publish[0]!.url);
    const saved = process.env.LAN_PARTY_UPDATE_URL;
    try {
      process.env.LAN_PARTY_UPDATE_URL = 'https://updates.example.org/lan-party/';
      expect(expandMacro(url, null, {})).toBe('https://updates.example.org/lan-party/');
      process.env.LAN_PARTY_UPDATE_URL = '';
      expect(expandMacro(url, null, {})).toBe('');
      delete process.env.LAN_PARTY_UPDATE_URL;
      expect(() => expandMacro(url, null, {})).toThrow(/LAN_PARTY_UPDATE_URL is not defined/);
    } finally {
      if (saved === undefined) delete process.env.LAN_PARTY_UPDATE_URL;
      else process.env.LAN_PARTY_UPDATE_URL = saved;
    }
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dist).toContain('scripts/dist.ts');
    expect(readFileSync(`${ROOT}scripts/dist.ts`, 'utf8')).toContain("process.env.LAN_PARTY_UPDATE_URL ?? ''");
  });

  it('the validator catches an unknown feed provider (the check can fail)', () => {
    const broken = { ...config, publish: [{ provider: 'generic-ish', url: 'x' }] };
    expect(validateBuilderConfig(broken).length).toBeGreaterThan(0);
  });
});

describe('Electron fuses', () => {
  it.each([
    ['runAsNode', false],
    ['enableCookieEncryption', true],
    ['onlyLoadAppFromAsar', true],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['enableNodeOptionsEnvironmentVariable', false],
    ['enableNodeCliInspectArguments', false],
    ['grantFileProtocolExtraPrivileges', false],
  ])('%s is %s', (fuse, value) => {
    expect(get(config, 'electronFuses', fuse)).toBe(value);
  });

  it('packs into an asar archive (onlyLoadAppFromAsar needs one), only the .node addons unpacked', () => {
    expect(config.asar).toEqual({ smartUnpack: false });
    expect(config.asarUnpack).toEqual(['**/node_modules/*/prebuilds/**/*.node']);
  });
});

describe('packed files, as electron-builder’s own file matcher decides', () => {
  const filters = builderFileFilters(config);

  it('packs the built main, preload and renderer and package.json', () => {
    for (const file of [
      'dist-electron/main.js',
      'dist-electron/preload.js',
      'dist/renderer/index.html',
      'package.json',
    ]) {
      expect(filters.app(file), file).toBe(true);
    }
  });

  it('leaves out sources, tests, build resources and the config itself', () => {
    for (const file of [
      'main/index.ts',
      'shared/lobby/lobbyState.ts',
      'tests/packaging/icon.test.ts',
      'build/icon.png',
    ]) {
      expect(filters.app(file), file).toBe(false);
    }
    expect(filters.app('electron-builder.yml')).toBe(false);
  });

  it('packs the runtime dependencies (hyperdht, left out of the bundles), nothing of the bundled dev packages', () => {
    expect(config.files).not.toContain('!**/node_modules/**');
    expect(filters.app('node_modules/react/index.js')).toBe(false);
    // electron-builder adds the production "dependencies" itself; React, zustand, ws, zod and electron-updater are
    // bundled by vite, so they stay devDependencies and never reach the packer.
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      dependencies?: Record<string, string>;
      devDependencies: object;
    };
    expect(Object.keys(pkg.dependencies ?? {})).toEqual(['hyperdht']);
    for (const name of BUNDLE_EXTERNALS) expect(filters.module(name, 'package.json'), name).toBe(true);
    for (const name of ['react', 'react-dom', 'zustand', 'ws', 'zod', 'electron-updater']) {
      expect(Object.keys(pkg.devDependencies)).toContain(name);
    }
  });

  const PREBUILDS = ['linux', 'darwin', 'win32'].flatMap((os) => [`${os}-x64`, `${os}-arm64`]);
  const kept = (platform: 'win' | 'mac' | 'linux', conf = config) => {
    const platformFilters = builderFileFilters(conf, platform);
    return [...PREBUILDS, 'android-arm64', 'ios-arm64']
      .filter((host) => platformFilters.module('sodium-native', `prebuilds/${host}/sodium-native.node`))
      .concat(
        platformFilters.module('sodium-native', 'prebuilds/linux-x64/sodium-native.bare') ? ['linux-x64 (Bare)'] : [],
      );
  };

  it.each([
    ['win', ['win32-x64', 'win32-arm64']],
    ['mac', ['darwin-x64', 'darwin-arm64']],
    ['linux', ['linux-x64', 'linux-arm64']],
  ] as const)('a %s package keeps its own OS’s Node prebuilds only (%j)', (platform, hosts) => {
    expect(kept(platform)).toEqual(hosts);
    expect(builderFileFilters(config, platform).module('sodium-native', 'index.js')).toBe(true);
  });

  it('without the exclusions every prebuild would ship (the check can fail)', () => {
    const files = (config.files as string[]).filter((pattern) => !pattern.includes('prebuilds'));
    expect(kept('linux', { ...config, files, linux: { ...(config.linux as object), files: [] } })).toEqual([
      ...PREBUILDS,
      'android-arm64',
      'ios-arm64',
      'linux-x64 (Bare)',
    ]);
  });

  it('the universal mac merge accepts the darwin addons, identical in its x64 and arm64 builds', () => {
    // @electron/universal refuses a Mach-O file the same in both builds unless x64ArchFiles names it.
    const universalRequire = createRequire(builderRequire.resolve('@electron/universal'));
    const { minimatch } = universalRequire('minimatch') as {
      minimatch(path: string, pattern: string, options: object): boolean;
    };
    const pattern = String(get(config, 'mac', 'x64ArchFiles'));
    const inApp = (path: string) => minimatch(path, pattern, { matchBase: true });
    for (const arch of ['x64', 'arm64']) {
      expect(
        inApp(`Contents/Resources/app.asar.unpacked/node_modules/udx-native/prebuilds/darwin-${arch}/udx-native.node`),
      ).toBe(true);
    }
    expect(inApp('Contents/Frameworks/Electron Framework.framework/Electron Framework')).toBe(false);
  });
});
