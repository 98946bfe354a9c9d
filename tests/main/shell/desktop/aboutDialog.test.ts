import { describe, expect, it } from 'vitest';
import { aboutDialogText, type AboutFacts } from '../../../../main/shell/desktop/aboutDialog';

const facts: AboutFacts = {
  name: 'LAN Party',
  version: '1.2.3',
  platform: 'win32',
  arch: 'x64',
  versions: { electron: '45.5.0', chrome: '140.0.1', node: '22.1.0' },
  ports: { discovery: 9998, game: 9000, room: null },
};

describe('About box', () => {
  it('names the version, platform, runtime and the ports a firewall needs', () => {
    const text = aboutDialogText(facts);
    expect(text.title).toBe('About LAN Party');
    expect(text.message).toBe('LAN Party 1.2.3');
    expect(text.detail.split('\n')).toEqual([
      'Version 1.2.3',
      'Platform win32 (x64)',
      'Electron 45.5.0 · Chromium 140.0.1 · Node 22.1.0',
      '',
      'LAN discovery: UDP 9998',
      'Game (default): UDP 9000',
    ]);
  });

  it('adds the open room’s port while hosting, and copes with a free default port and unknown runtimes', () => {
    const detail = aboutDialogText({ ...facts, versions: {}, ports: { discovery: 9998, game: 0, room: 51234 } }).detail;
    expect(detail).toContain('Game (default): any free UDP port');
    expect(detail).toContain('Your open room: UDP 51234');
    expect(detail).not.toContain('Electron');
  });
});
