/** A file-system failure in words: "it is a folder", "permission denied", or the error's own code. */
export function describeFsFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the disk is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'part of the path is a file, not a folder';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}

/** The banner text when settings could not be saved: play goes on with them in memory. */
export function saveWarning(filePath: string, error: unknown): string {
  return `Your settings could not be saved to ${filePath} (${describeFsFailure(error)}). They are kept until LAN Party closes.`;
}

/** The banner text when the settings file could not be read at start. */
export function readWarning(filePath: string, error: unknown): string {
  return `Your settings could not be read from ${filePath} (${describeFsFailure(error)}). LAN Party started with defaults.`;
}
