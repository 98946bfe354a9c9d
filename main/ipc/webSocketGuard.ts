/** Environment variable that asks a dev build to also serve the WebSocket binding. */
export const WS_BINDING_ENV = 'LAN_PARTY_WS_BINDING';

/** Command-line flag with the same meaning as {@link WS_BINDING_ENV}. */
export const WS_BINDING_FLAG = '--lan-party-ws-binding';

/** What the guard reads; passed in so it is testable without Electron. */
export interface WebSocketGuardInput {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly argv: readonly string[];
  readonly isPackaged: boolean;
}

/** The WebSocket binding runs only when explicitly asked for AND never in the packaged app. */
export function shouldEnableWebSocketBinding({ env, argv, isPackaged }: WebSocketGuardInput): boolean {
  if (isPackaged) return false;
  return env[WS_BINDING_ENV] === '1' || argv.includes(WS_BINDING_FLAG);
}
