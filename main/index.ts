import { app, BrowserWindow } from 'electron';
import { createMainWindow } from './app/createMainWindow';

// Electron entry: one window, created when the app is ready; quits when all windows close (except macOS).
app.whenReady().then(() => {
  createMainWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
