import { describe, expect, it, vi } from 'vitest';
import { createDesktopNotifier, type NotifierPorts } from '../../../../main/shell/desktop/desktopNotifier';
import { IDLE_LOBBY_VIEW, type LobbyView } from '../../../../shared/ipc/schemas/lobby';
import { loggerSpy } from '../../ipc/loggerSpy';

const hana = { id: 0, name: 'Hana', colour: '#3ddc97', ready: false, host: true, pingMs: null };
const gus = { ...hana, id: 1, name: 'Gus', host: false };

function hosting(players = [hana]): LobbyView {
  return {
    ...IDLE_LOBBY_VIEW,
    status: 'in-room',
    role: 'host',
    you: 0,
    target: { host: '127.0.0.1', port: 9000 },
    state: {
      roomName: 'Friday',
      gameId: 'tag',
      capacity: 8,
      passwordProtected: false,
      phase: 'lobby',
      players,
      chat: [],
      revision: 1,
    },
  };
}

function setup(state: { focused: boolean; enabled: boolean | Error }) {
  const ports = {
    isFocused: vi.fn(() => state.focused),
    enabled: vi.fn(async () => {
      if (state.enabled instanceof Error) throw state.enabled;
      return state.enabled;
    }),
    show: vi.fn(),
    attention: vi.fn(),
  } satisfies NotifierPorts;
  const logger = loggerSpy();
  const onChange = createDesktopNotifier(ports, hosting(), logger);
  return { ports, logger, onChange };
}

describe('desktop notifier', () => {
  it('in the background: a notification per change and one taskbar flash or dock bounce', async () => {
    const { ports, onChange } = setup({ focused: false, enabled: true });
    onChange(hosting([hana, gus]));
    await vi.waitFor(() => expect(ports.attention).toHaveBeenCalledOnce());
    expect(ports.show).toHaveBeenCalledExactlyOnceWith('Gus joined', 'Gus is in Friday.');
  });

  it('while the player looks at the window: nothing', async () => {
    const { ports, onChange } = setup({ focused: true, enabled: true });
    onChange(hosting([hana, gus]));
    onChange(hosting([hana, { ...gus, ready: true }]));
    await Promise.resolve();
    expect(ports.enabled).not.toHaveBeenCalled();
    expect(ports.show).not.toHaveBeenCalled();
    expect(ports.attention).not.toHaveBeenCalled();
  });

  it('with the setting off: nothing', async () => {
    const { ports, onChange } = setup({ focused: false, enabled: false });
    onChange(hosting([hana, gus]));
    await vi.waitFor(() => expect(ports.enabled).toHaveBeenCalledOnce());
    await Promise.resolve();
    expect(ports.show).not.toHaveBeenCalled();
    expect(ports.attention).not.toHaveBeenCalled();
  });

  it('compares with the view before, so each change is told once', async () => {
    const { ports, onChange } = setup({ focused: false, enabled: true });
    onChange(hosting([hana, gus]));
    onChange(hosting([hana, gus]));
    onChange(hosting([hana, { ...gus, ready: true }]));
    await vi.waitFor(() => expect(ports.show).toHaveBeenCalledTimes(2));
    expect(ports.show.mock.calls.map((call) => call[0])).toEqual(['Gus joined', 'Everyone is ready']);
  });

  it('a settings read that fails is logged, not thrown', async () => {
    const { ports, onChange, logger } = setup({ focused: false, enabled: new Error('disk') });
    onChange(hosting([hana, gus]));
    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalledOnce());
    expect(ports.show).not.toHaveBeenCalled();
  });
});
