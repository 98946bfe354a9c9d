import { useCallback, useEffect, useState } from 'react';
import type { StoreApi } from 'zustand';
import { ConnectionLostBanner } from './components/shell/ConnectionLostBanner';
import { ErrorScreen } from './components/shell/ErrorScreen';
import { FirstRunScreen } from './components/home/FirstRunScreen';
import { Header } from './components/shell/Header';
import { LoadingScreen } from './components/shell/LoadingScreen';
import { ProfileDialog } from './components/settings/ProfileDialog';
import { PLAYER_NAME_INPUT_ID, ProfilePanel } from './components/settings/ProfilePanel';
import { ScreenRouter } from './components/ScreenRouter';
import { ShellBanners } from './components/shell/ShellBanners';
import { StatusBar } from './components/shell/StatusBar';
import { StorageWarningBanner } from './components/shell/StorageWarningBanner';
import type { AppState } from './state/appStore';
import { useAppStore } from './state/AppStoreContext';
import { activeScreen } from './state/navigation';

const chip = (): HTMLElement | null => document.querySelector<HTMLElement>('[data-testid=player-chip]');

/** The app shell: loading, error, first run, or the launcher (header, current screen, status bar). */
export function App({ store }: { store: StoreApi<AppState> }) {
  const status = useAppStore((s) => s.status);
  const loadError = useAppStore((s) => s.loadError);
  const appInfo = useAppStore((s) => s.appInfo);
  const settings = useAppStore((s) => s.settings);
  const connectionLost = useAppStore((s) => s.connectionLost);
  const saveStatus = useAppStore((s) => s.saveStatus);
  const saveError = useAppStore((s) => s.saveError);
  const screen = useAppStore((s) => s.screen);
  const lobby = useAppStore((s) => s.lobby);
  const shellNotice = useAppStore((s) => s.shellNotice);
  const update = useAppStore((s) => s.update);
  const joinPrefill = useAppStore((s) => s.joinPrefill);
  const [profileOpen, setProfileOpen] = useState(false);
  const closeProfile = useCallback(() => setProfileOpen(false), []);

  useEffect(() => {
    void store.getState().start();
    return () => store.getState().stop();
  }, [store]);

  const theme = settings?.theme;
  useEffect(() => {
    // The CSS has one light token set, under data-theme: 'system' is resolved here from prefers-color-scheme
    // (Electron follows nativeTheme) and followed as the OS changes; light and dark pin it.
    const root = document.documentElement;
    const osLight = window.matchMedia('(prefers-color-scheme: light)');
    const apply = (): void => {
      root.dataset.theme = theme === 'light' || theme === 'dark' ? theme : osLight.matches ? 'light' : 'dark';
    };
    apply();
    if (theme === 'light' || theme === 'dark') return;
    osLight.addEventListener('change', apply);
    return () => osLight.removeEventListener('change', apply);
  }, [theme]);

  const restart = (): void => void store.getState().start();
  if (status === 'error') return <ErrorScreen message={loadError ?? 'Unknown error'} onRetry={restart} />;
  if (status === 'loading' || !appInfo || !settings) return <LoadingScreen />;
  const storageWarning = settings.storageWarning && <StorageWarningBanner message={settings.storageWarning} />;
  if (!settings.onboarded) {
    return (
      <>
        {storageWarning}
        <FirstRunScreen
          settings={settings}
          saving={saveStatus === 'saving'}
          saveError={saveStatus === 'error' ? saveError : null}
          onDone={(playerName, playerColor) => store.getState().finishFirstRun(playerName, playerColor)}
        />
      </>
    );
  }

  const current = activeScreen(screen, lobby);
  const editProfile = (): void => setProfileOpen(true);
  return (
    <div className={current === 'room' ? 'app app-room' : 'app'}>
      <Header appInfo={appInfo} settings={settings} onEditProfile={current === 'room' ? undefined : editProfile} />
      {connectionLost && <ConnectionLostBanner onReconnect={restart} />}
      {storageWarning}
      <ShellBanners
        notice={shellNotice}
        update={update}
        inviteWhileInRoom={current === 'room' && joinPrefill ? joinPrefill.code : null}
        onDismissNotice={store.getState().dismissShellNotice}
        onDismissInvite={store.getState().clearJoinPrefill}
        onInstallUpdate={store.getState().installUpdate}
      />
      <main className={current === 'room' ? 'content content-single content-room' : 'content content-single'}>
        <ScreenRouter current={current} store={store} settings={settings} />
      </main>
      <StatusBar appInfo={appInfo} connected={!connectionLost} lobby={lobby} />
      <ProfileDialog
        open={profileOpen && current !== 'room'}
        onClose={closeProfile}
        initialFocusId={PLAYER_NAME_INPUT_ID}
        returnFocusTo={chip}
      >
        <ProfilePanel
          settings={settings}
          saveStatus={saveStatus}
          saveError={saveError}
          onSave={(next) => store.getState().saveSettings(next)}
          onClose={closeProfile}
        />
      </ProfileDialog>
    </div>
  );
}
