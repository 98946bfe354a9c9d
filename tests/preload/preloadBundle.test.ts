import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The sandboxed preload is one small CommonJS file: it gets the contract's names from main, and never loads the
// contract or its schemas (zod), nor anything from Node. Walk its runtime import graph from source to prove it.
const root = resolve(__dirname, '../..');

function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^\s*import\s+(type\s+)?([^'"]*?)\s*from\s*['"]([^'"]+)['"]/gm)) {
    const typeOnly = Boolean(match[1]) || /^\{\s*(type\s+[^,}]+,?\s*)+\}$/.test(match[2] ?? '');
    if (!typeOnly) specifiers.push(match[3]!);
  }
  for (const match of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) specifiers.push(match[1]!);
  return specifiers;
}

function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of runtimeImports(file)) {
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const base = resolve(dirname(file), spec);
      const target = [`${base}.ts`, `${base}/index.ts`].find((candidate) => existsSync(candidate));
      if (!target) throw new Error(`cannot resolve ${spec} from ${file}`);
      visit(target);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => f.slice(root.length + 1)).sort(), packages: [...packages].sort() };
}

describe('preload bundle contents', () => {
  it('reaches only electron and the import-free channel naming', () => {
    const graph = importGraph(resolve(root, 'preload/index.ts'));
    expect(graph.packages).toEqual(['electron']);
    expect(graph.files).toEqual(['preload/createBridge.ts', 'preload/index.ts', 'shared/ipc/channels.ts']);
  });
});
