import type { ICruiseResult } from 'dependency-cruiser';

/** An arrow between two parts: the imports of every module of one part into the other, merged. */
export interface PartEdge {
  readonly from: string;
  readonly to: string;
  /** Every import behind the arrow is `import type` (erased at build time). */
  readonly typeOnly: boolean;
  /** At least one import behind the arrow breaks a rule (a known violation, or lint:deps fails). */
  readonly breaksRule: boolean;
}

/** The app at folder level: its parts and the arrows between them, both sorted. */
export interface PartGraph {
  readonly parts: readonly string[];
  readonly edges: readonly PartEdge[];
}

/**
 * The part a module belongs to, the level docs/architecture.md draws: main/net/<part>, main/<feature>,
 * shared/<part>, renderer, preload; a top-level file of main/ (the entries) is its own part, the top-level
 * files of main/net (index.ts, errors.ts, ...) are the part "main/net". Anything else (packages, Node
 * built-ins, tests) is not drawn: null.
 */
export function partOf(path: string): string | null {
  const match =
    /^main\/net\/[^/]+(?=\/)/.exec(path) ??
    /^main\/net(?=\/[^/]+$)/.exec(path) ??
    /^main\/[^/]+(?=\/)/.exec(path) ??
    /^main\/[^/]+$/.exec(path) ??
    /^shared\/[^/]+(?=\/)/.exec(path) ??
    /^(shared|renderer|preload)(?=\/)/.exec(path);
  return match ? match[0] : null;
}

interface EdgeTally {
  typeOnly: boolean;
  breaksRule: boolean;
}

/** Collapses a cruise result to parts. dependency-cruiser's own `collapse` keeps only the first import's
 * dependency types per arrow, so type-only arrows could not be told apart; this merges all of them. */
export function partGraph(result: ICruiseResult): PartGraph {
  const parts = new Set<string>();
  const edges = new Map<string, EdgeTally & { from: string; to: string }>();
  for (const module of result.modules) {
    const from = partOf(module.source);
    if (from === null) continue;
    parts.add(from);
    for (const dependency of module.dependencies) {
      const to = partOf(dependency.resolved);
      if (to === null || to === from) continue;
      const key = `${from}\u0000${to}`;
      const typeOnly = dependency.dependencyTypes.includes('type-only');
      const breaksRule = !dependency.valid;
      const tally = edges.get(key);
      if (tally) {
        tally.typeOnly &&= typeOnly;
        tally.breaksRule ||= breaksRule;
      } else {
        edges.set(key, { from, to, typeOnly, breaksRule });
      }
    }
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    parts: [...parts].sort(byName),
    edges: [...edges.values()]
      .sort((a, b) => byName(a.from, b.from) || byName(a.to, b.to))
      .map(({ from, to, typeOnly, breaksRule }) => ({ from, to, typeOnly, breaksRule })),
  };
}
