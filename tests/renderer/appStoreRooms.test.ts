import { describe, expect, it, vi } from 'vitest';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import { createApiFromBridge } from '../../renderer/src/api/apiFromBridge';
import { createAppStore } from '../../renderer/src/state/appStore';
import { fakeBridge, IDLE_VIEW } from './fakeBridge';
import { EMPTY_LAN_LIST } from '../../renderer/src/state/lanSlice';

const inRoom: LobbyView = {
  ...IDLE_VIEW,
  revision: 2,
  status: 'in-room',
  role: 'host',
  code: 'ABCDE-FGHJK',
  port: 9000,
  target: { host: '10.0.0.2', port: 9000 },
  you: 0,
  discoverable: true,
  state: {
    roomName: "ada's room",
    gameId: 'tag',
    capacity: 8,
    passwordProtected: false,
    phase: 'lobby',
    players: [{ id: 0, name: 'ada', colour: '#3ddc97', ready: false, host: true, pingMs: null }],
    chat: [],
    revision: 0,
  },
};

async function setup() {
  const fake = fakeBridge({
    playerName: 'ada',
    playerColor: '#3ddc97',
    onboarded: false,
    notifications: true,
    theme: 'system',
  });
  const store = createAppStore(async () => ({ api: createApiFromBridge(fake.bridge), onClose: () => () => {} }));
  await store.getState().start();
  return { store, fake };
}

describe('app store: rooms, LAN list and network check', () => {
  it('the first run saves name and colour as onboarded and leaves the profile status clean', async () => {
    const { store, fake } = await setup();
    expect(await store.getState().finishFirstRun('Nova', '#a77dff')).toBe(true);
    expect(fake.raw['settings.update']).toHaveBeenCalledWith({
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
    });
    expect(store.getState()).toMatchObject({ saveStatus: 'idle', settings: { onboarded: true, notifications: true } });
  });

  it('host resolves ok and the room comes with lobby.changed, not the reply; a failure resolves with its words', async () => {
    const { store, fake } = await setup();
    expect(await store.getState().hostRoom({ capacity: 4 })).toEqual({ ok: true });
    expect(fake.raw['lobby.host']).toHaveBeenCalledWith({ capacity: 4 });
    expect(store.getState().lobby.status).toBe('idle');
    fake.pushLobby(inRoom);
    expect(store.getState().lobby.status).toBe('in-room');
    fake.raw['lobby.joinByCode'].mockResolvedValueOnce({
      ok: false,
      error: { code: 'permission-denied', message: 'This room needs a password.' },
    });
    expect(await store.getState().joinByCode('ABCDE-FGHJK')).toEqual({
      ok: false,
      code: 'permission-denied',
      message: 'This room needs a password.',
    });
    expect(fake.raw['lobby.joinByCode']).toHaveBeenCalledWith({ code: 'ABCDE-FGHJK' });
    await store.getState().joinByCode('ABCDE-FGHJK', 'pw');
    expect(fake.raw['lobby.joinByCode']).toHaveBeenLastCalledWith({ code: 'ABCDE-FGHJK', password: 'pw' });
  });

  it('follows lobby.changed in revision order, and leaving goes home', async () => {
    const { store, fake } = await setup();
    store.getState().navigate('join');
    fake.pushLobby(inRoom);
    expect(store.getState().lobby).toEqual(inRoom);
    // A view that is not newer than the one held (late, or the same one again) changes nothing.
    fake.pushLobby({ ...IDLE_VIEW, status: 'joining', revision: inRoom.revision - 1 });
    fake.pushLobby({ ...inRoom, you: 7 });
    expect(store.getState().lobby).toEqual(inRoom);
    fake.pushLobby({ status: 'bogus' });
    expect(store.getState().lobby).toEqual(inRoom);
    await store.getState().leaveRoom();
    expect(store.getState()).toMatchObject({ screen: 'home', lobby: { status: 'in-room' } });
    fake.pushLobby({ ...IDLE_VIEW, revision: inRoom.revision + 1 });
    expect(store.getState().lobby.status).toBe('idle');
    store.getState().navigate('join');
    await store.getState().cancelJoin();
    expect(store.getState().screen).toBe('join');
  });

  it('a new connection starts the revisions afresh: its first view is taken even if older than the last', async () => {
    const { store, fake } = await setup();
    fake.pushLobby({ ...inRoom, revision: 40 });
    await store.getState().start();
    expect(store.getState().lobby).toEqual(IDLE_VIEW);
    fake.pushLobby(inRoom);
    expect(store.getState().lobby).toEqual(inRoom);
  });

  it('room actions send the contract inputs', async () => {
    const { store, fake } = await setup();
    // Each answers nothing, and that is a success.
    for (const result of [
      await store.getState().setReady(true),
      await store.getState().sendChat('hi'),
      await store.getState().kick(3),
      await store.getState().startRound(),
      await store.getState().endRound(),
      await store.getState().finishRound(),
      await store.getState().joinByAddress('party-pc', 9100),
    ])
      expect(result).toEqual({ ok: true });
    expect(fake.raw['lobby.setReady']).toHaveBeenCalledWith({ ready: true });
    expect(fake.raw['lobby.chat']).toHaveBeenCalledWith({ text: 'hi' });
    expect(fake.raw['lobby.kick']).toHaveBeenCalledWith({ playerId: 3 });
    expect(fake.raw['lobby.start']).toHaveBeenCalledOnce();
    expect(fake.raw['lobby.endRound']).toHaveBeenCalledOnce();
    // The host's "End round" (with results) is the game's request, not the lobby's "Back to the lobby".
    expect(fake.raw['game.finishRound']).toHaveBeenCalledOnce();
    expect(fake.raw['lobby.joinByAddress']).toHaveBeenCalledWith({ host: 'party-pc', port: 9100 });
  });

  it('End round refused (the round is already over) resolves with the backend’s words', async () => {
    const { store, fake } = await setup();
    fake.raw['game.finishRound'].mockResolvedValueOnce({
      ok: false,
      error: { code: 'failed-precondition', message: 'The round is already over.' },
    } as never);
    expect(await store.getState().finishRound()).toEqual({
      ok: false,
      code: 'failed-precondition',
      message: 'The round is already over.',
    });
  });

  it('the LAN list follows lan.servers, and a failed request shows as the list’s error', async () => {
    const { store, fake } = await setup();
    const started = store.getState().startLanSearch();
    expect(store.getState().lanBusy).toBe(true);
    await started;
    expect(store.getState()).toMatchObject({ lanBusy: false, lan: { running: true } });
    fake.pushLan({ ...EMPTY_LAN_LIST, running: true, error: 'macOS is blocking LAN Party' });
    expect(store.getState().lan.error).toBe('macOS is blocking LAN Party');
    fake.raw['lan.refresh'].mockResolvedValueOnce({
      ok: false,
      error: { code: 'unavailable', message: 'gone' },
    } as never);
    await store.getState().refreshLan();
    expect(store.getState().lan).toMatchObject({ running: true, error: 'gone' });
    await store.getState().stopLanSearch();
    expect(store.getState().lan.running).toBe(false);
  });

  it('runs the network check once at a time and keeps the error', async () => {
    const { store, fake } = await setup();
    let finish: (value: unknown) => void = () => {};
    fake.raw['netcheck.run'].mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)) as never);
    const first = store.getState().runNetcheck();
    await store.getState().runNetcheck();
    expect(fake.raw['netcheck.run']).toHaveBeenCalledOnce();
    expect(store.getState().netcheck.status).toBe('running');
    finish({ ok: false, error: { code: 'internal', message: 'boom' } });
    await first;
    expect(store.getState().netcheck).toEqual({ status: 'error', report: null, error: 'boom' });
  });

  it('actions before a connection fail like a dropped connection', async () => {
    const store = createAppStore(vi.fn(async () => Promise.reject(new Error('no backend'))));
    await store.getState().start();
    expect(await store.getState().hostRoom({})).toMatchObject({ ok: false, code: 'unavailable' });
  });
});
