import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BrowserWindow, SaveDialogReturnValue } from 'electron';
import { saveDialogChooser, type SaveDialog } from '../../../../main/shell/desktop/saveDialog';

function fakeDialog(answer: SaveDialogReturnValue) {
  const showSaveDialog = vi.fn(async (..._args: unknown[]) => answer);
  return { dialog: { showSaveDialog } as unknown as SaveDialog, showSaveDialog };
}

const window = (destroyed = false) => ({ isDestroyed: () => destroyed }) as unknown as BrowserWindow;

describe('saveDialogChooser', () => {
  it('opens the save dialog on the window, in the default folder with the suggested name', async () => {
    const { dialog, showSaveDialog } = fakeDialog({ canceled: false, filePath: '/home/ada/report.txt' });
    const win = window();
    const choose = saveDialogChooser(dialog, () => win, '/home/ada/Downloads');
    expect(await choose('lan-party-network-check-2026-01-02-2105.txt')).toBe('/home/ada/report.txt');
    expect(showSaveDialog).toHaveBeenCalledExactlyOnceWith(win, {
      title: 'Save the network check report',
      defaultPath: join('/home/ada/Downloads', 'lan-party-network-check-2026-01-02-2105.txt'),
      filters: [{ name: 'Text', extensions: ['txt'] }],
      properties: ['showOverwriteConfirmation', 'createDirectory'],
    });
  });

  it('resolves null when the player cancels (or the dialog gives no path)', async () => {
    const cancelled = fakeDialog({ canceled: true, filePath: '/ignored' });
    expect(await saveDialogChooser(cancelled.dialog, () => window(), '/d')('r.txt')).toBeNull();
    const empty = fakeDialog({ canceled: false, filePath: '' });
    expect(await saveDialogChooser(empty.dialog, () => window(), '/d')('r.txt')).toBeNull();
  });

  it('opens a free-standing dialog when there is no live window', async () => {
    for (const win of [null, window(true)]) {
      const { dialog, showSaveDialog } = fakeDialog({ canceled: false, filePath: '/d/r.txt' });
      expect(await saveDialogChooser(dialog, () => win, '/d')('r.txt')).toBe('/d/r.txt');
      expect(showSaveDialog.mock.calls[0]).toHaveLength(1);
    }
  });
});
