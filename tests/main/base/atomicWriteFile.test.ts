import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomicWriteFile } from '../../../main/base/atomicWriteFile';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('atomicWriteFile', () => {
  it('creates and then replaces a file, leaving no temp files', async () => {
    const path = join(dir, 'settings.json');
    await atomicWriteFile(path, 'one');
    await atomicWriteFile(path, 'two');
    expect(await readFile(path, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('writes the file readable by the owner only', async () => {
    const path = join(dir, 'settings.json');
    await atomicWriteFile(path, 'x');
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o077).toBe(0);
  });

  it('on failure keeps the old target and removes its temp file', async () => {
    // The target is a non-empty directory, so the final rename fails after the temp file is written.
    const path = join(dir, 'target');
    await mkdir(path);
    await writeFile(join(path, 'keep'), 'old');
    await expect(atomicWriteFile(path, 'new')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['target']);
    expect(await readFile(join(path, 'keep'), 'utf8')).toBe('old');
  });

  it('fails cleanly when the folder does not exist', async () => {
    await expect(atomicWriteFile(join(dir, 'missing', 'f.json'), 'x')).rejects.toThrow(/ENOENT/);
  });
});
