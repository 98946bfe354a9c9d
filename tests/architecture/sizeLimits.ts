import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The style rules' sizes: no source file over this many lines… */
export const MAX_LINES = 400;
/** …and no folder with more than this many files at its top level. */
export const MAX_FILES = 15;
/** Source files, by how their names end; a folder counts every file it holds directly. */
const SOURCE = /\.(ts|tsx|css|html)$/;

/** A file or folder over its limit, and by how much. */
export interface Oversize {
  readonly path: string;
  readonly kind: 'lines' | 'files';
  readonly size: number;
}

/** Lines as `wc -l` counts them when the file ends with a newline (and the last one when it does not). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every source file over MAX_LINES and every folder over MAX_FILES under `roots`, paths relative to `base`. */
export function oversized(base: string, roots: readonly string[]): Oversize[] {
  const found: Oversize[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile());
    if (files.length > MAX_FILES) found.push({ path: relative(base, dir), kind: 'files', size: files.length });
    for (const file of files) {
      if (!SOURCE.test(file.name)) continue;
      const lines = lineCount(readFileSync(join(dir, file.name), 'utf8'));
      if (lines > MAX_LINES) found.push({ path: relative(base, join(dir, file.name)), kind: 'lines', size: lines });
    }
    for (const sub of entries) if (sub.isDirectory() && sub.name !== 'node_modules') walk(join(dir, sub.name));
  };
  for (const root of roots) walk(join(base, root));
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * What a known-offenders list gets wrong against what was found: offenders it does not name (new ones), and names
 * that are no longer over their limit (fixed, or gone: the list must shrink with them).
 */
export function checkKnown(
  found: readonly Oversize[],
  known: readonly string[],
): { unlisted: Oversize[]; fixed: string[] } {
  const over = new Set(found.map((o) => o.path));
  return {
    unlisted: found.filter((o) => !known.includes(o.path)),
    fixed: known.filter((path) => !over.has(path)),
  };
}
