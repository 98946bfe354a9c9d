import type { LanServer } from '../../shared/ipc/schemas/lan';

/** A LAN list row for renderer tests: a compatible LAN Party room in its lobby, `overrides` on top. */
export const lanServer = (name: string, overrides: Partial<LanServer> = {}): LanServer => ({
  id: `id:${name}`,
  name,
  host: '10.0.0.2',
  port: 9000,
  playerCount: 1,
  capacity: 8,
  pingMs: 5,
  passwordProtected: false,
  protocolVersion: 1,
  compatibility: 'compatible',
  gameName: 'LAN Party Tag',
  hostName: 'Ada',
  state: 'lobby',
  own: false,
  addedByAddress: false,
  ...overrides,
});
