import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadWindowState,
  parseWindowState,
  saveWindowState,
  WINDOW_STATE_FILE_NAME,
} from '../../../../main/shell/window/windowStateFile';
import { loggerSpy } from '../../ipc/loggerSpy';

const state = { x: 120, y: -40, width: 1280, height: 800, maximized: true };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-window-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('window state file', () => {
  it('round-trips through the user-data folder, written atomically (no temp file left)', async () => {
    await saveWindowState(dir, state);
    expect(await readdir(dir)).toEqual([WINDOW_STATE_FILE_NAME]);
    expect(JSON.parse(await readFile(join(dir, WINDOW_STATE_FILE_NAME), 'utf8'))).toEqual({ version: 1, ...state });
    const logger = loggerSpy();
    expect(await loadWindowState(dir, logger)).toEqual(state);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('no file yet: null, quietly', async () => {
    const logger = loggerSpy();
    expect(await loadWindowState(dir, logger)).toBeNull();
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['{"version":1,"x":', 'not valid JSON'],
    ['[]', 'not a window state'],
    ['{"version":2,"x":0,"y":0,"width":800,"height":600,"maximized":false}', 'not a window state'],
    ['{"version":1,"x":0,"y":0,"width":-5,"height":600,"maximized":false}', 'not a window state'],
    ['{"version":1,"x":1e12,"y":0,"width":800,"height":600,"maximized":false}', 'not a window state'],
    ['{"version":1,"x":0.5,"y":0,"width":800,"height":600,"maximized":"yes"}', 'not a window state'],
  ])('a damaged file (%s) gives null and a warning, never a crash', async (text, problem) => {
    await writeFile(join(dir, WINDOW_STATE_FILE_NAME), text);
    const logger = loggerSpy();
    expect(await loadWindowState(dir, logger)).toBeNull();
    expect(logger.warn.mock.calls[0]![0]).toContain(problem);
    expect(parseWindowState(text).state).toBeNull();
  });

  it('an unreadable file (a folder in its place) gives null and a warning', async () => {
    // Saving into <blocked>/window-state.json/ makes the path a folder.
    const blocked = join(dir, 'blocked');
    await saveWindowState(join(blocked, WINDOW_STATE_FILE_NAME), state);
    const logger = loggerSpy();
    expect(await loadWindowState(blocked, logger)).toBeNull();
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});
