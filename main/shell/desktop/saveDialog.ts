import { join } from 'node:path';
import type { BrowserWindow, Dialog, SaveDialogOptions } from 'electron';

/** The part of Electron's dialog module this needs; injected so tests pass a fake. */
export type SaveDialog = Pick<Dialog, 'showSaveDialog'>;

/**
 * The backend's chooseSavePath in the desktop app: Electron's save dialog (on top of the window when there is
 * one) starting at `defaultDir`/`suggestedName`, for text files; null when the player cancels.
 */
export function saveDialogChooser(
  dialog: SaveDialog,
  window: () => BrowserWindow | null,
  defaultDir: string,
): (suggestedName: string) => Promise<string | null> {
  return async (suggestedName) => {
    const options: SaveDialogOptions = {
      title: 'Save the network check report',
      defaultPath: join(defaultDir, suggestedName),
      filters: [{ name: 'Text', extensions: ['txt'] }],
      properties: ['showOverwriteConfirmation', 'createDirectory'],
    };
    const parent = window();
    const result =
      parent && !parent.isDestroyed()
        ? await dialog.showSaveDialog(parent, options)
        : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}
