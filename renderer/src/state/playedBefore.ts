/** Where the renderer remembers that this player has been in a room (a UI hint, not a setting worth syncing). */
const KEY = 'lanParty.beenInARoom';

/** The little storage this needs (window.localStorage satisfies it), injected so tests need no DOM. */
export interface HintStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The page's storage, or none where it is refused (a sandboxed frame, private mode): then every player is new. */
export function pageStorage(): HintStorage | null {
  try {
    return (globalThis as { localStorage?: HintStorage }).localStorage ?? null;
  } catch {
    return null;
  }
}

/** Whether this player has hosted or joined a room before (home then skips "How game night works"). */
export function hasBeenInARoom(storage: HintStorage | null = pageStorage()): boolean {
  try {
    return storage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** Remembers that this player has been in a room; a storage that refuses is ignored (the hint shows again). */
export function rememberBeenInARoom(storage: HintStorage | null = pageStorage()): void {
  try {
    storage?.setItem(KEY, '1');
  } catch {
    // Full or refused storage: the steps just show once more.
  }
}
