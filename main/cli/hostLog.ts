import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createFileLog, LOG_FILE_MODE } from '../shell/fileLogger';

/** Where the dedicated host's lines go: stdout with the time of day, and the --log-file when one was given. */
export interface HostLog {
  /** The file written besides stdout, as an absolute path; undefined: stdout only. */
  readonly filePath: string | undefined;
  /** One line of the room's life: `[hh:mm:ss] text` on stdout, and in the file. */
  line(text: string): void;
  /** The start-up banner: as it is on stdout, line by line in the file. */
  banner(lines: readonly string[]): void;
  /** A failure the caller reports on stderr itself: recorded in the file only. */
  failure(text: string): void;
}

function timeOfDay(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

// What the usual failures mean for a log path, in words.
const REASONS: Readonly<Record<string, string>> = {
  EEXIST: 'a file is in the way of its folder',
  ENOTDIR: 'a file is in the way of its folder',
  EISDIR: 'that is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
};

/** Checks that the log file can be written before the room opens, so a typo fails at once and clearly. */
function assertWritable(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Owner-only from the start: the log holds the room's NET- code.
    closeSync(openSync(path, 'a', LOG_FILE_MODE));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new Error(`--log-file: cannot write to ${path}: ${REASONS[code] ?? (error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Opens the dedicated host's log: `write` is stdout, `now` the clock. With a log file its lines also go to a
 * rotating file (full date and time there, for a support request). Throws when that file cannot be written.
 */
export function openHostLog(logFile: string | undefined, write: (text: string) => void, now: () => Date): HostLog {
  const filePath = logFile === undefined ? undefined : resolve(logFile);
  if (filePath !== undefined) assertWritable(filePath);
  const file = filePath === undefined ? undefined : createFileLog({ filePath }).logger('host');
  return {
    filePath,
    line(text) {
      write(`[${timeOfDay(now())}] ${text}\n`);
      file?.info(text);
    },
    banner(lines) {
      write(`${lines.join('\n')}\n`);
      for (const text of lines) file?.info(text);
    },
    failure(text) {
      file?.error(text);
    },
  };
}
