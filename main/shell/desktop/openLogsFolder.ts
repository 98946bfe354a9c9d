import { mkdir } from 'node:fs/promises';
import { app, shell } from 'electron';
import type { Logger } from '../../base/logger';

/**
 * Help → Open logs folder: shows the app's own logs folder in the file manager, for a support request. The one
 * shell.openPath in the app (tests/main/shell/noOpenExternal.test.ts allow-lists this file): it takes no path,
 * so nothing the page says can choose what opens. The folder is created first, since nothing may have logged yet.
 */
export async function openLogsFolder(logger: Logger): Promise<boolean> {
  const dir = app.getPath('logs');
  try {
    await mkdir(dir, { recursive: true });
    const problem = await shell.openPath(dir);
    if (problem === '') return true;
    logger.warn(`could not open the logs folder ${dir}: ${problem}`);
  } catch (error) {
    logger.warn(`could not open the logs folder ${dir}`, error);
  }
  return false;
}
