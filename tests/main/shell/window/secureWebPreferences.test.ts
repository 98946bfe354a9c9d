import { describe, expect, it } from 'vitest';
import { secureWebPreferences } from '../../../../main/shell/window/secureWebPreferences';

describe('renderer web preferences', () => {
  const prefs = secureWebPreferences('/app/dist-electron/preload.js');

  it('isolates and sandboxes the renderer with no Node access', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and webviews off', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs).not.toHaveProperty('experimentalFeatures', true);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('uses the given preload', () => {
    expect(prefs.preload).toBe('/app/dist-electron/preload.js');
  });
});
