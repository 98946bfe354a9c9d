import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/architecture/projectCruise';
import { MAX_FILES, oversized } from './sizeLimits';

/** The code that ships. */
const ROOTS = ['main', 'shared', 'renderer', 'preload'];

describe('folder size', () => {
  it(`no source folder holds more than ${MAX_FILES} files`, () => {
    const over = oversized(PROJECT_ROOT, ROOTS).map((o) => `${o.path}: ${o.size} files (limit ${MAX_FILES})`);
    expect(over, 'group the folder’s files into subfolders by concept').toEqual([]);
  });

  describe('the check itself, on a scratch tree', () => {
    const base = mkdtempSync(join(tmpdir(), 'size-limits-'));
    afterAll(() => rmSync(base, { recursive: true, force: true }));
    mkdirSync(join(base, 'src/wide/deeper'), { recursive: true });
    mkdirSync(join(base, 'src/ok/node_modules'), { recursive: true });
    for (let i = 0; i <= MAX_FILES; i++) writeFileSync(join(base, `src/wide/deeper/f${i}.ts`), '');
    for (let i = 0; i < MAX_FILES; i++) writeFileSync(join(base, `src/ok/f${i}.ts`), 'x\n'.repeat(1_000));
    for (let i = 0; i <= MAX_FILES; i++) writeFileSync(join(base, `src/ok/node_modules/f${i}.ts`), '');

    it('finds a nested folder one file over, and nothing at the limit, however long its files', () => {
      expect(oversized(base, ['src'])).toEqual([{ path: 'src/wide/deeper', size: MAX_FILES + 1 }]);
    });
  });
});
