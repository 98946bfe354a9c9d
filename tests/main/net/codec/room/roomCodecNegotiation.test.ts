import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, jsonSerializer, Server, type EndpointOptions } from '../../../../../main/net/index';
import { isNativeDatagram } from '../../../../../main/net/native/nativePacket';
import { Wire } from '../../../../../main/net/v1/protocol';
import { lobbyTransportOptions } from '../../../../../main/lobby/lobbyTransport';
import { roomSerializer } from '../../../../../main/net/codec/index';
import { GAMES } from '../../../../../shared/games/registry';
import { GameMessage } from '../../../../../shared/game/gameProtocol';
import { startTapRelay } from '../../../../support/labTapRelay';
import { waitFor } from '../../../../support/waitFor';
import { inputPayload, snapshotPayload, viaJson } from './roomPayloads';

// A room's transport as the lobby builds it, on 127.0.0.1 only, through a tap that records the handshake.
const ROOM_SERIALIZER_NAME = roomSerializer(GAMES.list()).name;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function room(): Promise<{ server: Server; tapPort: number; downstream: Uint8Array[] }> {
  const server = await Server.listen({ ...lobbyTransportOptions(), port: 0, host: '127.0.0.1' });
  cleanups.push(() => server.close());
  const tap = await startTapRelay(server.port);
  cleanups.push(() => tap.close());
  return { server, tapPort: tap.port, downstream: tap.captured.downstream };
}

async function guest(port: number, options: Omit<EndpointOptions, 'drive'>): Promise<Client> {
  const client = new Client(options);
  cleanups.push(() => client.close());
  await client.connect('127.0.0.1', port);
  return client;
}

/** The v1 (clear-text) messages among captured datagrams. */
function v1Messages(datagrams: Uint8Array[]) {
  return datagrams
    .filter((d) => !isNativeDatagram(d))
    .map((d) => jsonSerializer.deserialize(d.subarray(Wire.HEADER_SIZE)));
}

/** Sends a snapshot down and an input up; resolves with what each end received. */
async function exchange(server: Server, client: Client) {
  const got = { snapshot: [] as unknown[], input: [] as unknown[] };
  client.onMessage(GameMessage.SNAPSHOT, (payload) => got.snapshot.push(payload));
  server.onMessage(GameMessage.INPUT, (_peer, payload) => got.input.push(payload));
  server.broadcast(GameMessage.SNAPSHOT, snapshotPayload(16), { channel: Channel.RELIABLE_ORDERED });
  client.send(GameMessage.INPUT, inputPayload(30), Channel.RELIABLE_ORDERED);
  await waitFor(() => got.snapshot.length === 1 && got.input.length === 1, 3000, 'game messages both ways');
  return got;
}

describe('the room codec on the lobby transport', () => {
  it('is agreed by two LAN Party ends, and game messages arrive as JSON would deliver them', async () => {
    const { server, tapPort, downstream } = await room();
    const client = await guest(tapPort, lobbyTransportOptions());
    expect(client.protocol).toBe('native');
    const accepted = v1Messages(downstream).find((m) => m.type === '__connect_accepted__');
    expect(accepted?.payload.native).toMatchObject({ codec: ROOM_SERIALIZER_NAME });
    const got = await exchange(server, client);
    expect(got.snapshot).toStrictEqual([viaJson(snapshotPayload(16))]);
    expect(got.input).toStrictEqual([viaJson(inputPayload(30))]);
  });

  it('falls back to JSON with a native end that does not offer it (an older build)', async () => {
    const { server, tapPort, downstream } = await room();
    const client = await guest(tapPort, {});
    expect(client.protocol).toBe('native');
    const accepted = v1Messages(downstream).find((m) => m.type === '__connect_accepted__');
    expect(accepted?.payload.native).toMatchObject({ codec: 'json' });
    const got = await exchange(server, client);
    expect(got.snapshot).toStrictEqual([viaJson(snapshotPayload(16))]);
  });

  it('gives a v1 peer the reference JSON: the snapshot is readable in the clear', async () => {
    const { server, tapPort, downstream } = await room();
    const client = await guest(tapPort, { native: false });
    expect(client.protocol).toBe('v1');
    const got = await exchange(server, client);
    expect(got.snapshot).toStrictEqual([viaJson(snapshotPayload(16))]);
    expect(got.input).toStrictEqual([viaJson(inputPayload(30))]);
    const snapshots = v1Messages(downstream).filter((m) => m.type === GameMessage.SNAPSHOT);
    expect(snapshots.map((m) => m.payload)).toStrictEqual([viaJson(snapshotPayload(16))]);
  });
});
