import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettingsFile, SETTINGS_FILE_NAME } from '../../../main/settings/settingsFile';
import { createSettingsStore } from '../../../main/settings/settingsStore';
import { settingsPatchSchema } from '../../../shared/ipc/schemas/settings';
import { loggerSpy } from '../ipc/loggerSpy';

const defaults = {
  playerName: 'ada',
  playerColor: '#3ddc97',
  onboarded: false,
  notifications: true,
  theme: 'system',
} as const;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-host-interface-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the remembered host interface (which address goes into room codes)', () => {
  it('is saved, read back by a new store, and cleared with null', async () => {
    const store = createSettingsStore({ dir, osUserName: 'ada', logger: loggerSpy() });
    expect(await store.update({ hostInterface: 'tailscale0' })).toMatchObject({ hostInterface: 'tailscale0' });
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8'))).toMatchObject({
      hostInterface: 'tailscale0',
    });
    const again = createSettingsStore({ dir, osUserName: 'ada', logger: loggerSpy() });
    expect((await again.get()).hostInterface).toBe('tailscale0');
    const cleared = await again.update({ hostInterface: null });
    expect(cleared.hostInterface).toBeUndefined();
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8'))).not.toHaveProperty('hostInterface');
  });

  it('is absent in files from before the choice, and a damaged value falls back with a warning', () => {
    const old = parseSettingsFile(JSON.stringify({ version: 1, playerName: 'Nova', playerColor: '#a77dff' }), defaults);
    expect(old.settings).not.toHaveProperty('hostInterface');
    expect(old.warnings).toEqual([]);
    const bad = parseSettingsFile(
      JSON.stringify({ version: 1, playerName: 'Nova', playerColor: '#a77dff', hostInterface: 'x'.repeat(65) }),
      defaults,
    );
    expect(bad.settings).not.toHaveProperty('hostInterface');
    expect(bad.settings.playerName).toBe('Nova');
    expect(bad.warnings).toEqual(['settings file has an invalid hostInterface; using the default']);
  });

  it('refuses an empty, over-long or control-character name over IPC', () => {
    for (const hostInterface of ['', 'x'.repeat(65), 'eth\u00000', 42]) {
      expect(settingsPatchSchema.safeParse({ hostInterface }).success, JSON.stringify(hostInterface)).toBe(false);
    }
    expect(settingsPatchSchema.parse({ hostInterface: 'ZeroTier One [8056c2e21c000001]' })).toEqual({
      hostInterface: 'ZeroTier One [8056c2e21c000001]',
    });
  });
});
