import { useCallback, useEffect } from 'react';
import type { StoreApi } from 'zustand';
import type { Settings } from '../../../shared/ipc/schemas/settings';
import type { AppState } from '../state/appStore';
import { useAppStore } from '../state/AppStoreContext';
import type { Screen } from '../state/navigation';
import { hasBeenInARoom, rememberBeenInARoom } from '../state/playedBefore';
import { showsDeveloperTools } from '../logic/developerTools';
import { internetRoomsOffer } from '../logic/internetRooms';
import { HomePanel } from './home/HomePanel';
import { HostScreen } from './host/HostScreen';
import { JoinScreen } from './join/JoinScreen';
import { LanScreen } from './lan/LanScreen';
import { NetcheckScreen } from './netcheck/NetcheckScreen';
import { RoomScreen } from './room/RoomScreen';

/** Renders the current screen with its slice of the store; actions are the store's (stable) functions. */
export function ScreenRouter({
  current,
  store,
  settings,
}: {
  current: Screen | 'room';
  store: StoreApi<AppState>;
  settings: Settings;
}) {
  const lobby = useAppStore((s) => s.lobby);
  const lan = useAppStore((s) => s.lan);
  const lanBusy = useAppStore((s) => s.lanBusy);
  const netcheck = useAppStore((s) => s.netcheck);
  const joinPrefill = useAppStore((s) => s.joinPrefill);
  const canSaveFiles = useAppStore((s) => s.appInfo?.transport === 'electron');
  const portMapping = useAppStore((s) => s.appInfo?.portMapping === true);
  const dht = useAppStore((s) => s.appInfo?.dht === true);
  const devTools = useAppStore((s) => showsDeveloperTools(s.appInfo?.transport ?? 'electron', import.meta.env.DEV));
  const actions = store.getState();
  const home = (): void => actions.navigate('home');
  const to = (screen: Screen) => () => actions.navigate(screen);
  const watchLan = useCallback(() => {
    const { startLanSearch, stopLanSearch } = store.getState();
    void startLanSearch();
    return () => void stopLanSearch();
  }, [store]);
  useEffect(() => {
    if (current === 'room') rememberBeenInARoom();
  }, [current]);
  const rememberAddress = (entry: { interfaceName: string }): void =>
    void actions.saveSettings({ hostInterface: entry.interfaceName });

  switch (current) {
    case 'room':
      return (
        <RoomScreen
          view={lobby}
          actions={{
            setReady: actions.setReady,
            sendChat: actions.sendChat,
            kick: actions.kick,
            startRound: actions.startRound,
            endRound: actions.endRound,
            finishRound: actions.finishRound,
            leaveRoom: actions.leaveRoom,
            openNetcheck: to('netcheck'),
          }}
        />
      );
    case 'host':
      return (
        <HostScreen
          playerName={settings.playerName}
          onHost={actions.hostRoom}
          onBack={home}
          onLoadAddresses={actions.hostAddresses}
          onRememberAddress={rememberAddress}
          internetRooms={internetRoomsOffer(settings.internet, portMapping, dht)}
        />
      );
    case 'join':
      return (
        <JoinScreen
          lobby={lobby}
          prefill={joinPrefill}
          onPrefillUsed={actions.clearJoinPrefill}
          onJoinCode={actions.joinByCode}
          onJoinAddress={actions.joinByAddress}
          onCancel={() => void actions.cancelJoin()}
          onBack={home}
          onOpenNetcheck={to('netcheck')}
        />
      );
    case 'browse':
      return (
        <LanScreen
          lan={lan}
          busy={lanBusy}
          onStart={actions.startLanSearch}
          onStop={actions.stopLanSearch}
          onRefresh={actions.refreshLan}
          onJoin={(server, password) => actions.joinByAddress(server.host, server.port, password)}
          onAddServer={actions.addLanServer}
          onRemoveServer={actions.removeLanServer}
          onBack={home}
          onOpenNetcheck={to('netcheck')}
          onJoinByCode={to('join')}
        />
      );
    case 'netcheck':
      return (
        <NetcheckScreen
          netcheck={netcheck}
          onRun={actions.runNetcheck}
          onBack={home}
          onExport={actions.exportNetcheck}
          canSave={canSaveFiles}
          devTools={devTools}
        />
      );
    case 'home':
      return (
        <HomePanel
          settings={settings}
          lan={lan}
          newPlayer={!hasBeenInARoom()}
          onWatchLan={watchLan}
          onNavigate={actions.navigate}
        />
      );
  }
}
