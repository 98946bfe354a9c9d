import type { LanAddedServer, LanList, LanServer } from '../../shared/ipc/schemas/lan';
import { DISCOVERY, serverKey, type BrowsedServer } from '../net/discovery';
import { hasVisibleText, normalizeText } from '../../shared/text/normalizeText';

/** What a room is called in the list when its advertised name shows nothing. */
export const UNNAMED_ROOM = 'Unnamed room';

/**
 * An advertised name through the one normaliser the lobby uses (discovery has already dropped hidden characters
 * and clipped it; this adds NFKC and collapsed spaces, so the list and the room agree on what a name looks like).
 */
function shownName(name: string): string {
  const normal = normalizeText(name);
  return hasVisibleText(normal) ? normal : UNNAMED_ROOM;
}

/** Whether we can play on a server that advertised this discovery protocol version (undefined: did not say). */
export function compatibilityOf(protocolVersion: number | undefined): LanServer['compatibility'] {
  if (protocolVersion === undefined) return 'unknown';
  return protocolVersion === DISCOVERY.PROTOCOL_VERSION ? 'compatible' : 'incompatible';
}

/** Turns a browser timestamp (the scheduler's monotonic ms) into wall-clock ms, which the renderer can compare. */
export type WallTimeOf = (monotonicMs: number) => number;

/** One browsed server as the LAN list shows it. Pure. */
export function toLanServer(
  server: BrowsedServer,
  ownInstanceId: string | null,
  wallTimeOf: WallTimeOf,
  addedIds: ReadonlySet<string> = new Set(),
): LanServer {
  const id = serverKey(server);
  return {
    id,
    name: shownName(server.name),
    host: server.address.host,
    port: server.address.port,
    playerCount: server.playerCount,
    capacity: server.capacity ?? null,
    pingMs: server.pingMs ?? null,
    passwordProtected: server.passwordProtected ?? false,
    protocolVersion: server.protocolVersion ?? null,
    compatibility: compatibilityOf(server.protocolVersion),
    gameName: server.gameName === undefined ? null : normalizeText(server.gameName),
    hostName: server.hostName === undefined ? null : normalizeText(server.hostName),
    state: server.state ?? null,
    own: ownInstanceId !== null && server.instanceId === ownInstanceId,
    addedByAddress: addedIds.has(id),
    lastSeenAt: Math.round(wallTimeOf(server.lastSeenAt)),
  };
}

/** What the list payload is made of. */
export interface LanListParts {
  readonly running: boolean;
  readonly servers: readonly BrowsedServer[];
  readonly ownInstanceId: string | null;
  readonly error: string | null;
  readonly ports: LanList['ports'];
  readonly added: readonly LanAddedServer[];
  readonly wallTimeOf: WallTimeOf;
  readonly staleAfterMs: number;
}

/**
 * The list payload: servers as browsed (sorted by name), whether the search runs and why not, the ports in use,
 * the servers added by address (those that answered are marked in the list), and when each was last heard.
 */
export function lanListOf(parts: LanListParts): LanList {
  const addedIds = new Set(parts.added.flatMap((entry) => (entry.serverId !== null ? [entry.serverId] : [])));
  return {
    running: parts.running,
    servers: parts.servers.map((server) => toLanServer(server, parts.ownInstanceId, parts.wallTimeOf, addedIds)),
    error: parts.error,
    ports: parts.ports,
    added: [...parts.added],
    staleAfterMs: parts.staleAfterMs,
  };
}
