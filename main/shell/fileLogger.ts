import { chmodSync } from 'node:fs';
import { parse, join } from 'node:path';
import electronLog from 'electron-log/node';
import type { Logger } from '../base/logger';

/** The app's log file in the logs folder; on rotation the previous one is kept beside it as main.old.log. */
export const LOG_FILE_NAME = 'main.log';

/** Size at which the log file is rotated: with the one old file kept, the logs never pass twice this. */
export const LOG_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Who may read a log: its owner only. Logs hold what a support request needs, which may be secret (the host
 * CLI's NET- code, addresses), so neither other users nor other accounts' programs read them.
 */
export const LOG_FILE_MODE = 0o600;

/** Options of {@link createFileLog}. */
export interface FileLogOptions {
  /** The file written (the app: `<logs folder>/main.log`; the host CLI: its --log-file). */
  readonly filePath: string;
  /** Rotation size; default {@link LOG_MAX_BYTES}. */
  readonly maxBytes?: number;
  /** Also hands every line to this logger (development: the console). */
  readonly mirror?: (component: string) => Logger;
}

/** A rotating log file and the project's Logger on top of it. */
export interface FileLog {
  readonly filePath: string;
  /** A Logger whose lines go to the file, labelled with `component`. */
  logger(component: string): Logger;
}

// electron-log keeps every logger by id; each file log gets its own so tests (and the CLI) never share one.
let created = 0;

/**
 * Opens a rotating log file with electron-log's Node entry. Not `electron-log/main`: that one registers its
 * own IPC channel for renderers, which would bypass the contract; renderer errors arrive as `app.reportError`.
 * Writes are synchronous so the last lines before a crash are on disk.
 */
export function createFileLog(options: FileLogOptions): FileLog {
  created += 1;
  const log = electronLog.create({ logId: `lan-party-file-${created}` });
  const file = log.transports.file;
  file.resolvePathFn = () => options.filePath;
  file.maxSize = options.maxBytes ?? LOG_MAX_BYTES;
  // A new file (the first, and each after a rotation) is created owner-only; rotation renames, keeping the mode.
  file.writeOptions = { flag: 'a', mode: LOG_FILE_MODE, encoding: 'utf8' };
  tightenExisting(options.filePath);
  // With the UTC offset: a log sent in for support may come from another time zone.
  file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}{z}] [{level}]{scope} {text}';
  // Only the file: the console is the mirror's job, and there is no renderer or server to send to.
  // (The Node entry has no ipc transport outside Electron.)
  const { console, ipc, remote } = log.transports as Partial<typeof log.transports>;
  for (const transport of [console, ipc, remote]) if (transport) transport.level = false;
  log.scope.labelPadding = false;
  return {
    filePath: options.filePath,
    logger(component) {
      const scoped = log.scope(component);
      const mirror = options.mirror?.(component);
      return {
        info(message, ...details) {
          scoped.info(message, ...details);
          mirror?.info(message, ...details);
        },
        warn(message, ...details) {
          scoped.warn(message, ...details);
          mirror?.warn(message, ...details);
        },
        error(message, ...details) {
          scoped.error(message, ...details);
          mirror?.error(message, ...details);
        },
      };
    },
  };
}

/** A log and its rotated copy left by an earlier version may be readable by all: made owner-only. */
function tightenExisting(filePath: string): void {
  const { dir, name, ext } = parse(filePath);
  for (const path of [filePath, join(dir, `${name}.old${ext}`)]) {
    try {
      chmodSync(path, LOG_FILE_MODE);
    } catch {
      // Not there yet (created owner-only when written), or a file system without modes.
    }
  }
}
