import { describe, expect, it } from 'vitest';
import { showsDeveloperTools } from '../../../renderer/src/logic/developerTools';

describe('showsDeveloperTools', () => {
  it('hides them in the installed desktop app', () => {
    expect(showsDeveloperTools('electron', false)).toBe(false);
  });

  it('shows them in a dev build and against the dev WebSocket binding', () => {
    expect(showsDeveloperTools('electron', true)).toBe(true);
    expect(showsDeveloperTools('websocket', false)).toBe(true);
    expect(showsDeveloperTools('websocket', true)).toBe(true);
  });
});
