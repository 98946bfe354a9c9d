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

/**
 * The one synchronous channel: the preload asks main for the contract's names with `ipcRenderer.sendSync` when it
 * builds the bridge, so it never loads the contract's schemas (names are written once, in contract.ts).
 */
export const BRIDGE_NAMES_CHANNEL = `${IPC_CHANNEL_PREFIX}names` as const;

/** What main answers on {@link BRIDGE_NAMES_CHANNEL}: the contract's request and event names. */
export interface BridgeNames {
  readonly requests: readonly string[];
  readonly events: readonly string[];
}

/** A dotted IPC name (`lobby.joinByCode`), the only kind the bridge builds functions for. */
const DOTTED_NAME = /^[a-z][a-zA-Z]*(\.[a-z][a-zA-Z]*)+$/;
/** More names than any contract of ours has: a longer list is not main's answer. */
const MAX_NAMES = 500;

/** Main's answer on {@link BRIDGE_NAMES_CHANNEL}, checked; throws a TypeError that says what is wrong. */
export function parseBridgeNames(value: unknown): BridgeNames {
  const list = (key: 'requests' | 'events'): string[] => {
    const names: unknown = (value as Record<string, unknown> | null | undefined)?.[key];
    if (!Array.isArray(names) || names.length > MAX_NAMES) throw new TypeError(`bridge names: no ${key} list`);
    for (const name of names) {
      if (typeof name !== 'string' || !DOTTED_NAME.test(name)) throw new TypeError(`bridge names: bad ${key} name`);
    }
    return [...(names as string[])];
  };
  return { requests: list('requests'), events: list('events') };
}

/** The global the preload exposes the bridge as: `window.lanParty`. */
export const BRIDGE_GLOBAL = 'lanParty' as const;
