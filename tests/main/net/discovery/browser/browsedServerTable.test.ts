import { describe, expect, it } from 'vitest';
import { BrowsedServerTable, type ServerInfo } from '../../../../../main/net/discovery';

const info = (overrides: Partial<ServerInfo> = {}): ServerInfo => ({
  name: 'Arena',
  address: { host: '10.0.0.2', port: 7777 },
  playerCount: 1,
  instanceId: 'arena',
  ...overrides,
});

describe('BrowsedServerTable', () => {
  it('reports a new server as appeared, with its ping and times', () => {
    const table = new BrowsedServerTable(5000);
    expect(table.observe(info(), 100, 12)).toEqual({
      kind: 'appeared',
      server: { ...info(), pingMs: 12, firstSeenAt: 100, lastSeenAt: 100 },
    });
    expect(table.list()).toHaveLength(1);
  });

  it('reports changes to shown fields, and stays quiet for identical replies', () => {
    const table = new BrowsedServerTable(5000);
    table.observe(info(), 100, 12);
    expect(table.observe(info(), 200, 12)).toBeUndefined();
    const change = table.observe(info({ playerCount: 2 }), 300, 12);
    expect(change).toMatchObject({ kind: 'changed', server: { playerCount: 2, lastSeenAt: 300, firstSeenAt: 100 } });
    expect(change?.kind === 'changed' && change.previous.playerCount).toBe(1);
    expect(table.observe(info({ playerCount: 2 }), 400, 30)).toMatchObject({ kind: 'changed', server: { pingMs: 30 } });
    expect(table.observe(info({ playerCount: 2, passwordProtected: true }), 500, 30)?.kind).toBe('changed');
  });

  it('keeps the last ping when only an announcement was heard', () => {
    const table = new BrowsedServerTable(5000);
    table.observe(info(), 100, 12);
    table.observe(info(), 200, undefined);
    expect(table.list()[0]?.pingMs).toBe(12);
    const announcedOnly = new BrowsedServerTable(5000);
    announcedOnly.observe(info(), 100, undefined);
    expect(announcedOnly.list()[0]).not.toHaveProperty('pingMs');
  });

  it('merges one instance heard on two interfaces, keeping the address that keeps answering', () => {
    const table = new BrowsedServerTable(4000);
    table.observe(info(), 100, 5);
    const other = info({ address: { host: '192.168.7.2', port: 7777 } });
    expect(table.observe(other, 150, 9)).toBeUndefined();
    expect(table.list()).toHaveLength(1);
    expect(table.list()[0]?.address.host).toBe('10.0.0.2');
    expect(table.list()[0]?.pingMs).toBe(5);
    // The first interface goes quiet for more than half the expiry: move to the one still answering.
    const moved = table.observe(other, 2200, 9);
    expect(moved).toMatchObject({ kind: 'changed', server: { address: { host: '192.168.7.2' }, pingMs: 9 } });
  });

  it('keeps reference servers (no instance id) apart by address', () => {
    const table = new BrowsedServerTable(5000);
    table.observe(info({ instanceId: undefined }), 100, 1);
    table.observe(info({ instanceId: undefined, address: { host: '10.0.0.3', port: 7777 } }), 100, 1);
    table.observe(info({ instanceId: undefined, address: { host: '10.0.0.3', port: 7778 } }), 100, 1);
    expect(table.list()).toHaveLength(3);
  });

  it('expires servers not heard for longer than goneAfterMs', () => {
    const table = new BrowsedServerTable(1000);
    table.observe(info(), 0, 1);
    table.observe(info({ instanceId: 'other', name: 'Other' }), 600, 1);
    expect(table.sweep(1000)).toEqual([]);
    const gone = table.sweep(1001);
    expect(gone.map((change) => change.kind === 'gone' && change.server.name)).toEqual(['Arena']);
    expect(table.list().map((server) => server.name)).toEqual(['Other']);
  });

  it('lists servers sorted by name, then address', () => {
    const table = new BrowsedServerTable(1000);
    table.observe(info({ name: 'b', instanceId: '1' }), 0, 1);
    table.observe(info({ name: 'a', instanceId: '2', address: { host: '10.0.0.9', port: 1 } }), 0, 1);
    table.observe(info({ name: 'a', instanceId: '3', address: { host: '10.0.0.1', port: 1 } }), 0, 1);
    expect(table.list().map((s) => s.instanceId)).toEqual(['3', '2', '1']);
    table.clear();
    expect(table.list()).toEqual([]);
  });
});
