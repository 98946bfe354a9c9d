import { describe, expect, it } from 'vitest';
import { DURATIONS_FILE, mergeDurations, readDurations } from '../../scripts/testDurations';

const file = (name: string, seconds: number) => ({
  name: `/repo/${name}`,
  startTime: 1000,
  endTime: 1000 + seconds * 1000,
});

describe('the measured durations list', () => {
  it('takes each reported file again, keeps the others, drops fast and deleted files, sorted by path', () => {
    const previous = { 'tests/lab/b.test.ts': 40, 'tests/lab/gone.test.ts': 9, 'tests/e2e/a.test.ts': 20 };
    const merged = mergeDurations(
      previous,
      [{ testResults: [file('tests/lab/b.test.ts', 12.345), file('tests/lab/now-fast.test.ts', 0.4)] }],
      '/repo',
      (path) => path !== 'tests/lab/gone.test.ts',
    );
    expect(merged).toEqual({ 'tests/e2e/a.test.ts': 20, 'tests/lab/b.test.ts': 12.3 });
    expect(Object.keys(merged)).toEqual(['tests/e2e/a.test.ts', 'tests/lab/b.test.ts']);
    // A file that became fast leaves the list.
    const faster = mergeDurations(merged, [{ testResults: [file('tests/lab/b.test.ts', 1)] }], '/repo', () => true);
    expect(faster).toEqual({ 'tests/e2e/a.test.ts': 20 });
  });

  it('reads a missing or damaged list as empty, and keeps only its entries that are durations', () => {
    expect(readDurations('/nonexistent/durations.json')).toEqual({});
    expect(readDurations('README.md')).toEqual({});
    expect(readDurations('package.json')).toEqual({});
    expect(readDurations(DURATIONS_FILE)['tests/lab/trustAttacks.test.ts']).toBeGreaterThan(0);
  });
});
