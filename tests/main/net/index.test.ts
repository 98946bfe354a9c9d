import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as net from '../../../main/net/index';

const INDEX = fileURLToPath(new URL('../../../main/net/index.ts', import.meta.url));

/** What a game developer uses, values and types; an internal showing up here (or a name vanishing) fails. */
const PUBLIC_VALUES = [
  'BindError',
  'Channel',
  'Client',
  'ConnectError',
  'DEFAULT_RECV_BUFFER',
  'PayloadTooLargeError',
  'Peer',
  'SendQueueFullError',
  'SerializationError',
  'Server',
  'codec',
  'compactJsonSerializer',
  'createLanBrowser',
  'createMemoryNetwork',
  'discoverLanServers',
  'encodeRoomCodeForHost',
  'isReliableChannel',
  'jsonSerializer',
  'linkLost',
  'openUdpDatagramSocket',
  'openUdpSocket',
  'resolveRoomHost',
  'startLanDiscovery',
];
const PUBLIC_TYPES = [
  'BrowsedServer',
  'BucketLimit',
  'ClientState',
  'ConnectFailure',
  'ConnectLimits',
  'ConnectionStats',
  'DatagramHandlers',
  'DatagramSocket',
  'DatagramSource',
  'DecodedMessage',
  'DepartureKind',
  'DiscoverLanServersOptions',
  'DriveMode',
  'DropReason',
  'EndpointOptions',
  'GuestTransport',
  'HostTransport',
  'Ipv4Lookup',
  'LanBrowser',
  'LanBrowserEvents',
  'LanBrowserOptions',
  'LanDiscoveryExtraInfo',
  'LanDiscoveryHandle',
  'LanDiscoveryOptions',
  'LanDiscoveryStats',
  'MemoryDropFilter',
  'MemoryNetwork',
  'MemoryNetworkOptions',
  'MemoryNetworkStats',
  'MessageMap',
  'NativeOptions',
  'OpenDatagramSocket',
  'OpenDatagramSocketOptions',
  'OpenSocket',
  'OpenSocketOptions',
  'RetransmitOptions',
  'Serializer',
  'ServerInfo',
  'ServerOptions',
  'TrafficCounters',
  'TransportPeer',
  'WireProtocol',
];

/** Every name main/net/index.ts exports, read from its syntax: values and types, and any `export *`. */
function declaredExports(): { values: string[]; types: string[]; starExports: string[] } {
  const source = ts.createSourceFile(INDEX, readFileSync(INDEX, 'utf8'), ts.ScriptTarget.Latest);
  const values: string[] = [];
  const types: string[] = [];
  const starExports: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) {
      // Anything but a re-export would be code in the entry point.
      if (!ts.isImportDeclaration(statement)) starExports.push(`statement: ${statement.getText(source)}`);
      continue;
    }
    const clause = statement.exportClause;
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!clause) starExports.push(from);
    else if (ts.isNamespaceExport(clause)) values.push(clause.name.text);
    else
      for (const element of clause.elements)
        (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text);
  }
  return { values: values.sort(), types: types.sort(), starExports };
}

describe('the public API of main/net', () => {
  it('exports exactly the listed values and types, with no `export *` to leak through', () => {
    const { values, types, starExports } = declaredExports();
    expect(starExports).toEqual([]);
    expect(values).toEqual(PUBLIC_VALUES);
    expect(types).toEqual(PUBLIC_TYPES);
  });

  it('has at run time exactly the listed values', () => {
    expect(Object.keys(net).sort()).toEqual(PUBLIC_VALUES);
  });

  it('keeps wire-format internals out', () => {
    const exported = new Set<string>([...PUBLIC_VALUES, ...PUBLIC_TYPES]);
    const internals = [
      'packHeader',
      'unpackHeader',
      'writeHeader',
      'PacketHeader',
      'sequenceAdd',
      'sequenceDiff',
      'isSequenceNewer',
      'Wire',
      'ReservedType',
      'Defaults',
      'isReservedType',
      'TrackedSender',
      'Connection',
    ];
    for (const internal of internals) {
      expect(exported.has(internal)).toBe(false);
      expect(internal in net).toBe(false);
    }
  });
});
