import { useEffect } from 'react';
import type { StoreApi } from 'zustand';
import { ConnectionLostBanner } from './components/ConnectionLostBanner';
import { ErrorScreen } from './components/ErrorScreen';
import { Header } from './components/Header';
import { HomePanel } from './components/HomePanel';
import { LoadingScreen } from './components/LoadingScreen';
import { PLAYER_NAME_INPUT_ID, ProfilePanel } from './components/ProfilePanel';
import { StatusBar } from './components/StatusBar';
import type { AppState } from './state/appStore';
import { useAppStore } from './state/AppStoreContext';

function focusProfile(): void {
  const input = document.getElementById(PLAYER_NAME_INPUT_ID);
  input?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  input?.focus();
}

/** The app shell: loading, error, or the launcher (header, home, profile, status bar). */
export function App({ store }: { store: StoreApi<AppState> }) {
  const status = useAppStore((s) => s.status);
  const loadError = useAppStore((s) => s.loadError);
  const appInfo = useAppStore((s) => s.appInfo);
  const settings = useAppStore((s) => s.settings);
  const connectionLost = useAppStore((s) => s.connectionLost);
  const saveStatus = useAppStore((s) => s.saveStatus);
  const saveError = useAppStore((s) => s.saveError);

  useEffect(() => {
    void store.getState().start();
    return () => store.getState().stop();
  }, [store]);

  const restart = (): void => void store.getState().start();
  if (status === 'error') return <ErrorScreen message={loadError ?? 'Unknown error'} onRetry={restart} />;
  if (status === 'loading' || !appInfo || !settings) return <LoadingScreen />;

  return (
    <div className="app">
      <Header appInfo={appInfo} settings={settings} onEditProfile={focusProfile} />
      {connectionLost && <ConnectionLostBanner onReconnect={restart} />}
      <main className="content">
        <HomePanel settings={settings} />
        <ProfilePanel
          settings={settings}
          saveStatus={saveStatus}
          saveError={saveError}
          onSave={(next) => store.getState().saveSettings(next)}
        />
      </main>
      <StatusBar appInfo={appInfo} connected={!connectionLost} />
    </div>
  );
}
