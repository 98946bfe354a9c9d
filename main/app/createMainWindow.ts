import { join } from 'node:path';
import { BrowserWindow } from 'electron';
import { secureWebPreferences } from './secureWebPreferences';

/** Opens the app window: sandboxed renderer, our preload, no navigation away and no new windows. */
export function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 720,
    minWidth: 900,
    minHeight: 600,
    backgroundColor: '#0f1220',
    title: 'LAN Party',
    webPreferences: secureWebPreferences(join(__dirname, 'preload.js')),
  });
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  const devUrl = process.env.VITE_DEV_SERVER_URL;
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(join(__dirname, '../dist/renderer/index.html'));
  return win;
}
