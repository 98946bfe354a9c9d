// Channel and listener naming shared by main and the preload; no imports so the preload bundle stays small.

/** Prefix of every Electron IPC channel the app uses, so nothing else collides with ours. */
export const IPC_CHANNEL_PREFIX = 'lanParty:' as const;

/** The ipcMain.handle / ipcRenderer.invoke channel for a request. */
export function requestChannel(name: string): string {
  return `${IPC_CHANNEL_PREFIX}request:${name}`;
}

/** The webContents.send / ipcRenderer.on channel for an event. */
export function eventChannel(name: string): string {
  return `${IPC_CHANNEL_PREFIX}event:${name}`;
}

/** `settings.changed` → `SettingsChanged`: dotted name segments joined in PascalCase. */
type DottedToPascal<S extends string> = S extends `${infer Head}.${infer Tail}`
  ? `${Capitalize<Head>}${DottedToPascal<Tail>}`
  : Capitalize<S>;

/** The bridge's subscribe function for an event: `settings.changed` → `onSettingsChanged`. */
export type ListenerName<E extends string> = `on${DottedToPascal<E>}`;

/** Runtime twin of {@link ListenerName}. */
export function listenerName<E extends string>(eventName: E): ListenerName<E> {
  const pascal = eventName
    .split('.')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `on${pascal}` as ListenerName<E>;
}

/** The global the preload exposes the bridge as: `window.lanParty`. */
export const BRIDGE_GLOBAL = 'lanParty' as const;
