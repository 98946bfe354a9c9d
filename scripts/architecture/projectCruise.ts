import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ICruiseOptions, ICruiseResult, IViolation } from 'dependency-cruiser';

/** The project root (where package.json and .dependency-cruiser.cjs are). */
export const PROJECT_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** What `npm run lint:deps` cruises, relative to the project root (the test keeps the script in step). */
export const CHECKED_ROOTS = [
  'main',
  'shared',
  'renderer',
  'preload',
  'tests',
  'bench',
  'scripts',
  'vite.config.ts',
  'vitest.config.ts',
] as const;

/** Violations that existed when a rule was written, accepted until fixed; new ones still fail (see the docs). */
export const KNOWN_VIOLATIONS_FILE = '.dependency-cruiser-known-violations.json';

/** Reads the known-violations baseline; an unreadable or malformed file is an error, not an empty list. */
export function readKnownViolations(root: string = PROJECT_ROOT): IViolation[] {
  const path = `${root}/${KNOWN_VIOLATIONS_FILE}`;
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${path} must hold a JSON array of violations`);
  return parsed as IViolation[];
}

/** Where to cruise and what to change in the project's options for this run. */
export interface ProjectCruiseOptions {
  /** Directory the roots and the reported paths are relative to; default the project root. */
  readonly baseDir?: string;
  /** Options merged over the config's (knownViolations, includeOnly, ...). */
  readonly overrides?: ICruiseOptions;
}

/** Cruises `roots` with the rules and options of the project's .dependency-cruiser.cjs. */
export async function cruiseWithProjectRules(
  roots: readonly string[],
  { baseDir = PROJECT_ROOT, overrides = {} }: ProjectCruiseOptions = {},
): Promise<ICruiseResult> {
  // dependency-cruiser is ESM only and this package is CommonJS: tsx runs scripts as CJS, where only a dynamic
  // import can load it.
  const { cruise } = await import('dependency-cruiser');
  const { default: extractDepcruiseOptions } = await import('dependency-cruiser/config-utl/extract-depcruise-options');
  const options = await extractDepcruiseOptions(`${PROJECT_ROOT}/.dependency-cruiser.cjs`);
  // An absolute baseDir lets packages resolve from the project's node_modules even for a fixture tree.
  const { output } = await cruise([...roots], { ...options, ...overrides, baseDir });
  if (typeof output === 'string') throw new Error('dependency-cruiser returned a report, expected a cruise result');
  return output;
}
