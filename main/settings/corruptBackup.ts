import { constants } from 'node:fs';
import { copyFile, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Damaged settings files kept for the user to inspect; older ones are deleted. */
export const KEPT_CORRUPT_BACKUPS = 3;

/** "2026-12-01T22-49-51-123Z": an ISO timestamp usable in a file name that sorts in time order. */
function stamp(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

/**
 * Moves a damaged file aside as `<file>.corrupt-<timestamp>` without ever overwriting an earlier backup (a
 * clash gets `-2`, `-3` …), then deletes all but the newest {@link KEPT_CORRUPT_BACKUPS}. Returns the backup's
 * path; rejects when the file could not be moved.
 */
export async function backUpCorruptFile(filePath: string, at: Date, keep = KEPT_CORRUPT_BACKUPS): Promise<string> {
  const base = `${filePath}.corrupt-${stamp(at)}`;
  let backup: string | undefined;
  for (let n = 1; n <= 100 && backup === undefined; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    try {
      await copyFile(filePath, candidate, constants.COPYFILE_EXCL);
      backup = candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  if (backup === undefined) throw new Error(`too many backups named ${base}`);
  await unlink(filePath);
  const prefix = `${basename(filePath)}.corrupt-`;
  const backups = (await readdir(dirname(filePath))).filter((name) => name.startsWith(prefix)).sort();
  for (const old of backups.slice(0, Math.max(0, backups.length - keep))) {
    await unlink(join(dirname(filePath), old)).catch(() => undefined);
  }
  return backup;
}
