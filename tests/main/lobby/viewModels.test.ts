import { describe, expect, it } from 'vitest';
import { compatibilityOf, lanListOf, toLanServer } from '../../../main/lan/lanServerView';
import { codeFor, IDLE_LOBBY_VIEW, lobbyViewOf } from '../../../main/lobby/lobbyView';
import { DEFAULT_NETWORK_OPTIONS, resolveNetworkOptions } from '../../../main/base/networkOptions';
import type { BrowsedServer } from '../../../main/net/discovery';
import { lanListSchema } from '../../../shared/ipc/schemas/lan';
import { lobbyViewSchema } from '../../../shared/ipc/schemas/lobby';
import { createLobbyState } from '../../../shared/lobby/lobbyState';
import { decode } from '../../../shared/roomCode';

const state = createLobbyState(
  { roomName: 'Friday', capacity: 8, passwordProtected: false },
  { name: 'Ada', colour: '#3ddc97' },
);
const target = { host: '192.168.1.20', port: 9000 };

describe('lobby view model', () => {
  it('describes every phase in a contract-valid view', () => {
    const views = [
      lobbyViewOf({ kind: 'idle' }),
      lobbyViewOf({ kind: 'opening' }),
      lobbyViewOf({ kind: 'joining', target }),
      lobbyViewOf({
        kind: 'hosting',
        codes: { code: 'X', shortCode: '0A0E4', shortCodeMissing: null },
        target,
        addresses: [{ interfaceName: 'eth0', address: '192.168.1.20' }],
        discoverable: true,
        state,
      }),
      lobbyViewOf({ kind: 'guest', target, you: 3, state }),
      lobbyViewOf({ kind: 'ended', end: { code: 'kicked', message: 'm' }, target, you: 3, state }),
    ];
    for (const view of views) expect(lobbyViewSchema.safeParse(view).success).toBe(true);
    expect(views.map((v) => [v.status, v.role])).toEqual([
      ['idle', null],
      ['hosting', 'host'],
      ['joining', 'guest'],
      ['in-room', 'host'],
      ['in-room', 'guest'],
      ['ended', 'guest'],
    ]);
    expect(views[0]).toEqual(IDLE_LOBBY_VIEW);
    expect(views[2]?.target).toEqual(target);
    expect(views[3]).toMatchObject({
      you: 0,
      port: 9000,
      code: 'X',
      shortCode: '0A0E4',
      shortCodeMissing: null,
      addresses: [{ address: '192.168.1.20' }],
    });
    expect(decode(views[4]!.code!)).toEqual(target);
    expect(views[5]).toMatchObject({ end: { code: 'kicked' }, code: null });
  });

  it('gives no code for an address that is not IPv4', () => {
    expect(codeFor({ host: 'fe80::1', port: 9000 })).toBeNull();
  });
});

describe('LAN list view model', () => {
  const browsed: BrowsedServer = {
    name: 'Friday',
    address: { host: '192.168.1.20', port: 9000 },
    playerCount: 2,
    protocolVersion: 1,
    capacity: 8,
    passwordProtected: true,
    gameName: 'LAN Party Tag',
    instanceId: 'abc',
    pingMs: 4,
    firstSeenAt: 0,
    lastSeenAt: 0,
  };
  // The browser's monotonic clock started 1.7e12 ms after the epoch.
  const wall = (monotonicMs: number): number => 1_700_000_000_000 + monotonicMs;

  it('maps a browsed server, flags our own, and fills gaps of plain gale.net servers', () => {
    expect(toLanServer(browsed, 'abc', wall)).toEqual({
      id: 'id:abc',
      name: 'Friday',
      host: '192.168.1.20',
      port: 9000,
      playerCount: 2,
      capacity: 8,
      pingMs: 4,
      passwordProtected: true,
      protocolVersion: 1,
      compatibility: 'compatible',
      gameName: 'LAN Party Tag',
      hostName: null,
      state: null,
      own: true,
      addedByAddress: false,
      lastSeenAt: 1_700_000_000_000,
    });
    expect(
      toLanServer({ ...browsed, hostName: 'Ａda', state: 'playing' }, null, wall, new Set(['id:abc'])),
    ).toMatchObject({
      hostName: 'Ada',
      state: 'playing',
      addedByAddress: true,
    });
    const plain: BrowsedServer = {
      name: 'py',
      address: { host: '10.0.0.3', port: 7777 },
      playerCount: 0,
      firstSeenAt: 0,
      lastSeenAt: 0,
    };
    expect(toLanServer(plain, null, wall)).toMatchObject({
      id: 'addr:10.0.0.3:7777',
      capacity: null,
      pingMs: null,
      passwordProtected: false,
      compatibility: 'unknown',
      gameName: null,
      own: false,
    });
    expect(
      lanListSchema.safeParse(
        lanListOf({
          running: true,
          servers: [browsed, plain],
          ownInstanceId: null,
          error: null,
          ports: { discovery: 9998, game: 9000 },
          added: [{ host: '192.168.1.20', port: 9998, status: 'answered', serverId: 'id:abc', detail: null }],
          wallTimeOf: wall,
          staleAfterMs: 3500,
        }),
      ).success,
    ).toBe(true);
  });

  it('shows advertised names in the lobby’s normal form, and names an invisible one', () => {
    expect(
      toLanServer({ ...browsed, name: 'Ｆｒｉｄａｙ\u00a0\u00a0LAN', gameName: 'Tag\u202e' }, null, wall),
    ).toMatchObject({
      name: 'Friday LAN',
      gameName: 'Tag',
    });
    expect(toLanServer({ ...browsed, name: '\u3164\u200b' }, null, wall).name).toBe('Unnamed room');
  });

  it('rates compatibility by our discovery protocol version', () => {
    expect(compatibilityOf(1)).toBe('compatible');
    expect(compatibilityOf(2)).toBe('incompatible');
    expect(compatibilityOf(undefined)).toBe('unknown');
  });
});

describe('network options', () => {
  it('defaults to the real app: wildcard binds, port 9998, game 9000, announcements every 3 s', () => {
    expect(DEFAULT_NETWORK_OPTIONS).toMatchObject({
      discoveryPort: 9998,
      bindAddress: '0.0.0.0',
      discoveryBindAddress: '0.0.0.0',
      broadcastTargets: undefined,
      announceIntervalMs: 3000,
      defaultGamePort: 9000,
    });
  });

  it('overrides only the fields given', () => {
    expect(resolveNetworkOptions({ discoveryPort: 40000, bindAddress: undefined })).toEqual({
      ...DEFAULT_NETWORK_OPTIONS,
      discoveryPort: 40000,
    });
  });
});
