import { describe, expect, it } from 'vitest';
import type { ICruiseResult } from 'dependency-cruiser';
import { partGraph, partOf } from '../../scripts/architecture/partGraph';

interface Dep {
  readonly resolved: string;
  readonly typeOnly?: boolean;
  readonly valid?: boolean;
}

// Only the fields partGraph reads; a cruise result has many more.
function result(modules: Record<string, Dep[]>): ICruiseResult {
  return {
    modules: Object.entries(modules).map(([source, deps]) => ({
      source,
      valid: true,
      dependents: [],
      dependencies: deps.map((dep) => ({
        resolved: dep.resolved,
        dependencyTypes: dep.typeOnly ? ['local', 'type-only', 'import'] : ['local', 'import'],
        valid: dep.valid ?? true,
      })),
    })),
  } as unknown as ICruiseResult;
}

describe('partOf', () => {
  it.each([
    ['main/net/v1/connection.ts', 'main/net/v1'],
    ['main/net/index.ts', 'main/net'],
    ['main/netcheck/portCheck.ts', 'main/netcheck'],
    ['main/game/host/gameHost.ts', 'main/game'],
    ['main/createBackend.ts', 'main/createBackend.ts'],
    ['shared/ipc/schemas/lobby.ts', 'shared/ipc'],
    ['shared/top.ts', 'shared'],
    ['renderer/src/App.tsx', 'renderer'],
    ['preload/index.ts', 'preload'],
  ])('puts %s in %s', (path, part) => {
    expect(partOf(path)).toBe(part);
  });

  it.each([['node_modules/zod/index.cjs'], ['fs'], ['tests/support/waitFor.ts'], ['mainly/x.ts'], ['renderer']])(
    'draws no part for %s',
    (path) => {
      expect(partOf(path)).toBeNull();
    },
  );
});

describe('partGraph', () => {
  it('merges imports into one arrow per pair of parts, drops arrows within a part and to undrawn modules', () => {
    const graph = partGraph(
      result({
        'main/lobby/a.ts': [
          { resolved: 'main/lobby/b.ts' },
          { resolved: 'main/base/logger.ts', typeOnly: true },
          { resolved: 'main/base/listeners.ts' },
          { resolved: 'node_modules/zod/index.cjs' },
        ],
        'main/lobby/b.ts': [{ resolved: 'main/conditioner/x.ts', typeOnly: true }],
        'main/lan/c.ts': [{ resolved: 'main/lobby/a.ts', valid: false }, { resolved: 'main/lobby/b.ts' }],
        'tests/t.ts': [{ resolved: 'main/lobby/a.ts' }],
      }),
    );
    expect(graph.parts).toEqual(['main/lan', 'main/lobby']);
    expect(graph.edges).toEqual([
      { from: 'main/lan', to: 'main/lobby', typeOnly: false, breaksRule: true },
      { from: 'main/lobby', to: 'main/base', typeOnly: false, breaksRule: false },
      { from: 'main/lobby', to: 'main/conditioner', typeOnly: true, breaksRule: false },
    ]);
  });

  it('draws nothing for an empty cruise', () => {
    expect(partGraph(result({}))).toEqual({ parts: [], edges: [] });
  });
});
