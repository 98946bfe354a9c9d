import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/** The project root, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// js-yaml ships no types; it is the parser electron-builder itself reads electron-builder.yml with.
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

/** electron-builder.yml parsed as electron-builder parses it. */
export function loadBuilderConfig(): Record<string, unknown> {
  const config = yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8'));
  if (typeof config !== 'object' || config === null) throw new Error('electron-builder.yml is not a mapping');
  return config as Record<string, unknown>;
}

/** electron-builder's own configuration schema, shipped with app-builder-lib. */
export function builderSchema(): object {
  return JSON.parse(readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as object;
}

let compiled: ValidateFunction | undefined;

/** Validates a config with ajv against the schema (as electron-builder does, minus its type coercion). */
export function validateBuilderConfig(config: unknown): ErrorObject[] {
  // The schema is large: compile it once per test file.
  compiled ??= new Ajv({ allErrors: true, strict: false }).compile(builderSchema());
  return compiled(config) ? [] : [...(compiled.errors ?? [])];
}

/** A nested value by path, e.g. `get(config, 'mac', 'extendInfo')`. */
export function get(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

interface BuilderFileMatcherModule {
  getMainFileMatchers(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformOptions: object,
    packager: object,
    outDir: string,
    isElectronCompile: boolean,
  ): Array<{ createFilter(): (file: string, stat: object) => boolean }>;
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformOptions: object,
    packager: object,
  ): { patterns: string[]; createFilter(): (file: string, stat: object) => boolean; isEmpty(): boolean };
}

/**
 * electron-builder's own file filters for this config (internal API of app-builder-lib 26): `app` decides for a
 * project file, `module` for a file inside an installed dependency, exactly as the packer would be asked when
 * packaging for the platform whose section (`win`, `mac`, `linux`; none by default) is given.
 */
export function builderFileFilters(
  config: Record<string, unknown>,
  platform?: 'win' | 'mac' | 'linux',
): {
  app(relativePath: string, isDirectory?: boolean): boolean;
  module(moduleName: string, relativePath: string): boolean;
} {
  const matchers = require('app-builder-lib/out/fileMatcher') as BuilderFileMatcherModule;
  const identity = (pattern: string) => pattern;
  const info = {
    isPrepackedAppAsar: false,
    config,
    projectDir: ROOT.slice(0, -1),
    buildResourcesDir: `${ROOT}build`,
    debugLogger: { isEnabled: false },
  };
  const dest = '/packed/app';
  const options = platform === undefined ? {} : ((config[platform] ?? {}) as object);
  const main = matchers.getMainFileMatchers(
    ROOT.slice(0, -1),
    dest,
    identity,
    options,
    { info },
    `${ROOT}release`,
    false,
  );
  const appFilter = main[0]!.createFilter();
  const moduleMatcher = matchers.getNodeModuleFileMatcher(ROOT.slice(0, -1), dest, identity, options, info);
  const stat = (isDirectory: boolean, extra: object = {}) => ({ isDirectory: () => isDirectory, ...extra });
  return {
    app: (relativePath, isDirectory = false) => appFilter(`${ROOT}${relativePath}`, stat(isDirectory)),
    module(moduleName, relativePath) {
      // With no exclusions in `files` electron-builder copies every production dependency file unfiltered.
      if (moduleMatcher.isEmpty()) return true;
      const filter = moduleMatcher.createFilter();
      const file = `${ROOT}node_modules/${moduleName}/${relativePath}`;
      return filter(file, stat(false, { moduleFullFilePath: `node_modules/${moduleName}/${relativePath}` }));
    },
  };
}
