import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loggerSpy } from '../../ipc/loggerSpy';

let root: string;
const openPath = vi.fn<(path: string) => Promise<string>>();
vi.mock('electron', () => ({
  app: { getPath: (name: string) => (name === 'logs' ? join(root, 'logs') : join(root, name)) },
  shell: { openPath: (path: string) => openPath(path) },
}));
const { openLogsFolder } = await import('../../../../main/shell/desktop/openLogsFolder');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'lan-party-logs-'));
  openPath.mockReset();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('openLogsFolder', () => {
  it('creates the logs folder if needed and opens exactly it', async () => {
    openPath.mockResolvedValue('');
    expect(await openLogsFolder(loggerSpy())).toBe(true);
    expect(openPath).toHaveBeenCalledExactlyOnceWith(join(root, 'logs'));
    expect((await stat(join(root, 'logs'))).isDirectory()).toBe(true);
  });

  it('logs what the OS said when it could not open it', async () => {
    openPath.mockResolvedValue('No application knows how to open folders');
    const logger = loggerSpy();
    expect(await openLogsFolder(logger)).toBe(false);
    expect(logger.warn.mock.calls[0]![0]).toContain('No application knows how to open folders');
  });

  it('logs a failure to create the folder instead of throwing, and opens nothing', async () => {
    await writeFile(join(root, 'logs'), 'a file where the folder should be');
    const logger = loggerSpy();
    expect(await openLogsFolder(logger)).toBe(false);
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(openPath).not.toHaveBeenCalled();
  });

  it('logs an opener that throws', async () => {
    openPath.mockRejectedValue(new Error('dbus gone'));
    const logger = loggerSpy();
    expect(await openLogsFolder(logger)).toBe(false);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringContaining('could not open the logs folder'),
      expect.any(Error),
    );
  });
});
