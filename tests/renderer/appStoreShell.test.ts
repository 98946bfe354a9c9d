import { describe, expect, it } from 'vitest';
import { createApiFromBridge } from '../../renderer/src/api/apiFromBridge';
import { createAppStore } from '../../renderer/src/state/appStore';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import { fakeBridge, IDLE_VIEW } from './fakeBridge';

const link = { kind: 'join', code: 'ABCDE-FGHJK' } as const;
const inRoom: LobbyView = { ...IDLE_VIEW, status: 'in-room', role: 'guest', code: 'ZZZZ0-00000', you: 1 };

async function setup(prepare: (fake: ReturnType<typeof fakeBridge>) => void = () => {}) {
  const fake = fakeBridge();
  prepare(fake);
  const store = createAppStore(async () => ({ api: createApiFromBridge(fake.bridge), onClose: () => () => {} }));
  await store.getState().start();
  return { store, fake };
}

describe('app store: what the desktop shell says', () => {
  it('a link kept before the page loaded opens the join screen with its code, and joins nothing', async () => {
    const { store, fake } = await setup((f) =>
      f.raw['app.pending'].mockResolvedValueOnce({ ok: true, value: { deepLink: link, notice: null } } as never),
    );
    expect(store.getState()).toMatchObject({ status: 'ready', screen: 'join', joinPrefill: { code: link.code } });
    expect(fake.raw['lobby.joinByCode']).not.toHaveBeenCalled();
    expect(fake.raw['lobby.joinByAddress']).not.toHaveBeenCalled();
  });

  it('asks for pending links only after subscribing to the events (none can slip between)', async () => {
    const { fake } = await setup();
    const pendingOrder = fake.raw['app.pending'].mock.invocationCallOrder[0]!;
    expect(fake.raw.onAppDeepLink.mock.invocationCallOrder[0]!).toBeLessThan(pendingOrder);
    expect(fake.raw.onAppNotice.mock.invocationCallOrder[0]!).toBeLessThan(pendingOrder);
  });

  it('a link clicked while running prefills again, even the same code twice', async () => {
    const { store, fake } = await setup();
    fake.pushShell('deepLink', link);
    const first = store.getState().joinPrefill;
    expect(store.getState().screen).toBe('join');
    store.getState().clearJoinPrefill();
    expect(store.getState().joinPrefill).toBeNull();
    store.getState().navigate('home');
    fake.pushShell('deepLink', link);
    expect(store.getState().screen).toBe('join');
    expect(store.getState().joinPrefill?.seq).toBeGreaterThan(first!.seq);
    expect(fake.raw['lobby.joinByCode']).not.toHaveBeenCalled();
  });

  it('ignores a malformed link event (the contract check drops it)', async () => {
    const { store, fake } = await setup();
    fake.pushShell('deepLink', { kind: 'join', code: '' });
    fake.pushShell('deepLink', { kind: 'host', code: 'ABCDE-FGHJK' });
    expect(store.getState()).toMatchObject({ screen: 'home', joinPrefill: null });
  });

  it('an invite while in a room waits, and opens the join screen once the player leaves', async () => {
    const { store, fake } = await setup();
    fake.pushLobby(inRoom);
    fake.pushShell('deepLink', link);
    expect(store.getState().joinPrefill?.code).toBe(link.code);
    expect(await store.getState().leaveRoom()).toEqual({ ok: true });
    expect(store.getState()).toMatchObject({ screen: 'join', joinPrefill: { code: link.code } });
  });

  it('leaving without a waiting invite goes home as before', async () => {
    const { store, fake } = await setup();
    fake.pushLobby(inRoom);
    await store.getState().leaveRoom();
    expect(store.getState().screen).toBe('home');
  });

  it('shows a kept crash notice, a live one, and forgets it when dismissed', async () => {
    const { store, fake } = await setup((f) =>
      f.raw['app.pending'].mockResolvedValueOnce({
        ok: true,
        value: { deepLink: null, notice: { kind: 'renderer-crashed' } },
      } as never),
    );
    expect(store.getState().shellNotice).toEqual({ kind: 'renderer-crashed' });
    store.getState().dismissShellNotice();
    expect(store.getState().shellNotice).toBeNull();
    fake.pushShell('notice', { kind: 'renderer-hung' });
    expect(store.getState().shellNotice).toEqual({ kind: 'renderer-hung' });
  });

  it('the menu opens the network check', async () => {
    const { store, fake } = await setup();
    fake.pushShell('openScreen', { screen: 'netcheck' });
    expect(store.getState().screen).toBe('netcheck');
  });

  it('follows the update status and installs through the contract, reporting a refusal', async () => {
    const { store, fake } = await setup();
    expect(store.getState().update).toEqual({ state: 'disabled' });
    fake.pushShell('update', { state: 'ready', version: '1.2.0' });
    expect(store.getState().update).toEqual({ state: 'ready', version: '1.2.0' });
    expect(await store.getState().installUpdate()).toMatchObject({ ok: false, code: 'failed-precondition' });
    fake.raw['app.installUpdate'].mockResolvedValueOnce({
      ok: true,
      value: { state: 'ready', version: '1.2.0' },
    } as never);
    expect(await store.getState().installUpdate()).toEqual({ ok: true });
    expect(fake.raw['app.installUpdate']).toHaveBeenCalledTimes(2);
  });

  it('loads the update status on start and unsubscribes from the shell on stop', async () => {
    const { store, fake } = await setup((f) =>
      f.raw['app.updateStatus'].mockResolvedValueOnce({
        ok: true,
        value: { state: 'downloading', version: '2.0.0' },
      } as never),
    );
    expect(store.getState().update).toEqual({ state: 'downloading', version: '2.0.0' });
    expect(fake.shellListenerCount()).toBe(4);
    store.getState().stop();
    expect(fake.shellListenerCount()).toBe(0);
  });
});
