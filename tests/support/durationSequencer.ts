import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { readDurations } from '../../scripts/testDurations';

/**
 * `files` in vitest's order (groups, then projects by name), but inside a project the files `durations` lists go
 * first, longest first; the others keep their order after them.
 */
export function longestFirst(
  files: readonly TestSpecification[],
  durations: Readonly<Record<string, number>>,
  root: string,
): TestSpecification[] {
  const rank = new Map(files.map((file, i) => [file, i]));
  const expected = (file: TestSpecification) => durations[relative(root, file.moduleId).split('\\').join('/')];
  return [...files].sort((a, b) => {
    const byBase = rank.get(a)! - rank.get(b)!;
    if (a.project.name !== b.project.name) return byBase;
    const [da, db] = [expected(a), expected(b)];
    if (da !== undefined && db !== undefined) return db - da || byBase;
    if (da !== undefined || db !== undefined) return da !== undefined ? -1 : 1;
    return byBase;
  });
}

/**
 * Vitest's sequencer, with each project's slow files first by their measured durations (tests/durations.json): on
 * a fresh clone (CI) vitest has no timings cached and orders by file size, which started a 41 s lab file 141 s
 * into a 183 s phase.
 */
export default class DurationSequencer extends BaseSequencer {
  private readonly durations = readDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(await super.sort(files), this.durations, this.ctx.config.root);
  }
}
