import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import type { AppState } from './appStore';

const AppStoreContext = createContext<StoreApi<AppState> | null>(null);

/** Makes the app store available to every component below. */
export function AppStoreProvider({ store, children }: { store: StoreApi<AppState>; children: ReactNode }) {
  return <AppStoreContext.Provider value={store}>{children}</AppStoreContext.Provider>;
}

/** Reads a slice of the app store; re-renders only when that slice changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(AppStoreContext);
  if (!store) throw new Error('useAppStore used outside <AppStoreProvider>');
  return useStore(store, selector);
}
