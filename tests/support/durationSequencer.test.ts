import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import DurationSequencer, { longestFirst } from './durationSequencer';

const ROOT = process.cwd();

/** A file of `project` as a sequencer sees it. */
const spec = (project: string, groupOrder: number, path: string) =>
  ({
    moduleId: `${ROOT}/${path}`,
    project: { name: project, config: { sequence: { groupOrder }, isolate: true } },
  }) as unknown as TestSpecification;

const names = (files: readonly TestSpecification[]) => files.map((file) => file.moduleId.slice(ROOT.length + 1));

describe('the duration sequencer', () => {
  it('keeps the projects in their order, and puts a project’s listed files first, longest first', () => {
    const files = [
      spec('node', 0, 'tests/main/a.test.ts'),
      spec('lab', 1, 'tests/lab/unlisted.test.ts'),
      spec('lab', 1, 'tests/lab/short.test.ts'),
      spec('lab', 1, 'tests/lab/other-unlisted.test.ts'),
      spec('lab', 1, 'tests/lab/long.test.ts'),
      spec('e2e', 2, 'tests/e2e/screens.e2e.test.ts'),
    ];
    const durations = {
      'tests/lab/long.test.ts': 76.7,
      'tests/lab/short.test.ts': 3.2,
      'tests/e2e/screens.e2e.test.ts': 9,
    };
    expect(names(longestFirst(files, durations, ROOT))).toEqual([
      'tests/main/a.test.ts',
      'tests/lab/long.test.ts',
      'tests/lab/short.test.ts',
      'tests/lab/unlisted.test.ts',
      'tests/lab/other-unlisted.test.ts',
      'tests/e2e/screens.e2e.test.ts',
    ]);
    expect(names(longestFirst(files, {}, ROOT))).toEqual(names(files));
  });

  it('on a fresh clone (nothing cached) runs the slowest lab files of tests/durations.json first', async () => {
    const ctx = {
      config: { root: ROOT },
      cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
    } as unknown as Vitest;
    const files = ['mutator', 'directInvite', 'regressions', 'trustAttacks'].map((name) =>
      spec('lab', 1, `tests/lab/${name}.test.ts`),
    );
    const order = names(await new DurationSequencer(ctx).sort(files));
    expect(order.indexOf('tests/lab/trustAttacks.test.ts')).toBe(0);
    expect(order.indexOf('tests/lab/directInvite.test.ts')).toBe(1);
  });
});
