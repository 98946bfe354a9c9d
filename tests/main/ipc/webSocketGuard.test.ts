import { describe, expect, it } from 'vitest';
import { shouldEnableWebSocketBinding, WS_BINDING_ENV, WS_BINDING_FLAG } from '../../../main/ipc/webSocketGuard';

describe('WebSocket binding guard', () => {
  it('stays off by default', () => {
    expect(shouldEnableWebSocketBinding({ env: {}, argv: [], isPackaged: false })).toBe(false);
  });

  it('turns on in a dev build when asked by env var or flag', () => {
    expect(shouldEnableWebSocketBinding({ env: { [WS_BINDING_ENV]: '1' }, argv: [], isPackaged: false })).toBe(true);
    expect(shouldEnableWebSocketBinding({ env: {}, argv: ['electron', '.', WS_BINDING_FLAG], isPackaged: false })).toBe(
      true,
    );
  });

  it('never turns on in the packaged app, whatever is asked', () => {
    expect(
      shouldEnableWebSocketBinding({ env: { [WS_BINDING_ENV]: '1' }, argv: [WS_BINDING_FLAG], isPackaged: true }),
    ).toBe(false);
  });

  it('needs the exact value: other env values do not count', () => {
    for (const value of ['0', 'true', 'yes', '']) {
      expect(shouldEnableWebSocketBinding({ env: { [WS_BINDING_ENV]: value }, argv: [], isPackaged: false })).toBe(
        false,
      );
    }
    expect(shouldEnableWebSocketBinding({ env: {}, argv: [`${WS_BINDING_FLAG}=0`], isPackaged: false })).toBe(false);
  });
});
