import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * No folder with more than this many files at its top level: past that a feature's files want subfolders by
 * concept to be found. Files themselves are as long as their one responsibility needs (no line cap: issue 38).
 */
export const MAX_FILES = 15;

/** A folder over the limit, and its file count. */
export interface Oversize {
  readonly path: string;
  readonly size: number;
}

/** Every folder over MAX_FILES under `roots`, paths relative to `base`. */
export function oversized(base: string, roots: readonly string[]): Oversize[] {
  const found: Oversize[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile());
    if (files.length > MAX_FILES) found.push({ path: relative(base, dir), size: files.length });
    for (const sub of entries) if (sub.isDirectory() && sub.name !== 'node_modules') walk(join(dir, sub.name));
  };
  for (const root of roots) walk(join(base, root));
  return found.sort((a, b) => a.path.localeCompare(b.path));
}
