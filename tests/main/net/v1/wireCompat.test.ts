import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, Server } from '../../../../main/net/index';
import { waitFor } from '../../../support/waitFor';

// A peer written from the wire document alone, sending the reference's exact bytes, stands in for Python gale.net.

interface Datagram {
  channel: number;
  token: bigint;
  sequence: number;
  ack: number;
  bits: number;
  body: string;
  from: RemoteInfo;
}

function build(channel: number, token: bigint, sequence: number, ack: number, bits: number, body: string): Buffer {
  const h = Buffer.alloc(21);
  h.writeUInt8(channel, 0);
  h.writeBigUInt64BE(token, 1);
  h.writeUInt32BE(sequence, 9);
  h.writeUInt32BE(ack, 13);
  h.writeUInt32BE(bits, 17);
  return Buffer.concat([h, Buffer.from(body, 'utf8')]);
}

async function rawPeer(): Promise<{ socket: Socket; inbox: Datagram[]; port: number }> {
  const socket = createSocket('udp4');
  const inbox: Datagram[] = [];
  socket.on('message', (m, from) =>
    inbox.push({
      channel: m.readUInt8(0),
      token: m.readBigUInt64BE(1),
      sequence: m.readUInt32BE(9),
      ack: m.readUInt32BE(13),
      bits: m.readUInt32BE(17),
      body: m.subarray(21).toString('utf8'),
      from,
    }),
  );
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { socket, inbox, port: socket.address().port };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('our Server with a reference-style client', () => {
  it('accepts, answers pings, delivers reliable data and acknowledges it byte-for-byte per the spec', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    const got: unknown[] = [];
    server.onMessage('input', (_p, payload) => got.push(payload));
    const py = await rawPeer();
    cleanups.push(() => py.socket.close());

    py.socket.send(build(0, 0n, 0, 0, 0, '{"type": "__connect_request__", "payload": {}}'), server.port, '127.0.0.1');
    await waitFor(() => py.inbox.some((d) => d.body.includes('__connect_accepted__')), 2000, 'accept');
    const accept = py.inbox.find((d) => d.body.includes('__connect_accepted__'))!;
    expect(accept.body).toBe('{"type": "__connect_accepted__", "payload": {"peer_id": 1}}');
    expect(accept).toMatchObject({ channel: 0, sequence: 0, ack: 0, bits: 0 });
    const token = accept.token;
    expect(token).not.toBe(0n);

    // a repeated request from the same address gets the same accept again
    py.socket.send(build(0, 0n, 0, 0, 0, '{"type": "__connect_request__", "payload": {}}'), server.port, '127.0.0.1');
    await waitFor(
      () => py.inbox.filter((d) => d.body.includes('__connect_accepted__')).length === 2,
      2000,
      'second accept',
    );
    // Nothing is kept for an address until it echoes an accept's token: a request alone may be spoofed.
    expect(server.getPeers()).toHaveLength(0);

    py.socket.send(build(0, token, 0, 0, 0, '{"type": "__ping__", "payload": {"id": 7}}'), server.port, '127.0.0.1');
    await waitFor(() => py.inbox.some((d) => d.body === '{"type": "__pong__", "payload": {"id": 7}}'), 2000, 'pong');
    expect(server.getPeers().map((p) => p.id)).toEqual([1]);

    // reliable ordered seq 0 and 1, header ack (0, 0) as a reference sender that received nothing writes it
    py.socket.send(
      build(1, token, 1, 0, 0, '{"type": "input", "payload": {"move": "right"}}'),
      server.port,
      '127.0.0.1',
    );
    py.socket.send(
      build(1, token, 0, 0, 0, '{"type": "input", "payload": {"move": "left"}}'),
      server.port,
      '127.0.0.1',
    );
    await waitFor(() => got.length === 2, 2000, 'delivery');
    expect(got).toEqual([{ move: 'left' }, { move: 'right' }]);
    await waitFor(
      () => py.inbox.some((d) => d.channel === 1 && d.body.includes('__ack__') && d.ack === 1),
      2000,
      'ack',
    );
    const ack = py.inbox.filter((d) => d.channel === 1 && d.body.includes('__ack__')).at(-1)!;
    expect(ack).toMatchObject({ token, sequence: 0, ack: 1, bits: 1, body: '{"type": "__ack__", "payload": {}}' });

    // the server's own ping arrives and carries the token
    await waitFor(() => py.inbox.some((d) => d.body.startsWith('{"type": "__ping__"')), 2000, 'server ping');
    expect(py.inbox.find((d) => d.body.startsWith('{"type": "__ping__"'))!.token).toBe(token);

    // server reliable message: sequence 0, and the header acks what it received on that channel
    server.sendTo(1, 'state', { n: 1 }, Channel.RELIABLE_ORDERED);
    await waitFor(() => py.inbox.some((d) => d.body.includes('"state"')), 2000, 'server reliable');
    expect(py.inbox.find((d) => d.body.includes('"state"'))).toMatchObject({
      channel: 1,
      sequence: 0,
      ack: 1,
      bits: 1,
    });

    const left: string[] = [];
    server.onDisconnect((_p, r) => left.push(r));
    py.socket.send(build(0, token, 0, 0, 0, '{"type": "__disconnect__", "payload": {}}'), server.port, '127.0.0.1');
    await waitFor(() => left.length === 1, 2000, 'disconnect');
  });
});

describe('our Client with a reference-style server', () => {
  it('connects with the token from the accept header and speaks the protocol', async () => {
    const py = await rawPeer();
    cleanups.push(() => py.socket.close());
    const token = 0x0123456789abcdefn;
    const client = new Client();
    cleanups.push(() => client.close());
    const got: unknown[] = [];
    const reasons: string[] = [];
    client.onMessage('snapshot', (p) => got.push(p));
    client.onDisconnect((r) => reasons.push(r));
    const connecting = client.connect('127.0.0.1', py.port);
    await waitFor(() => py.inbox.length > 0, 2000, 'connect request');
    const request = py.inbox[0]!;
    expect(request).toMatchObject({ channel: 0, token: 0n, sequence: 0, ack: 0, bits: 0 });
    // The request is a reference-format connect request; the native offer rides in payload fields the
    // reference ignores, padded so no answer outgrows it.
    expect(request.body).toMatch(
      /^\{"type": "__connect_request__", "payload": \{"native": \{"version": 2, "mtu": 1200/,
    );
    expect(JSON.parse(request.body).payload.native).toEqual({
      version: 2,
      mtu: 1200,
      codec: 'json',
      maxMessage: 4194304,
      // A quarter of the receive buffer the OS granted the client's socket.
      recvWindow: Math.floor(client.recvBufferSize / 4),
      // This connect attempt's X25519 public key (32 bytes, base64url).
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(client.recvBufferSize).toBeGreaterThan(0);
    expect(request.body.length + 21).toBeGreaterThanOrEqual(200);
    py.socket.send(
      build(0, token, 0, 0, 0, '{"type": "__connect_accepted__", "payload": {"peer_id": 3}}'),
      request.from.port,
      '127.0.0.1',
    );
    // The client speaks at once with the token; a reference server answers its ping, which completes the connect.
    await waitFor(
      () => py.inbox.some((d) => d.token === token && d.body.startsWith('{"type": "__ping__"')),
      2000,
      'ping',
    );
    const ping = py.inbox.find((d) => d.token === token && d.body.startsWith('{"type": "__ping__"'))!;
    const pong = ping.body.replace('"__ping__"', '"__pong__"');
    py.socket.send(build(0, token, 0, 0, 0, pong), request.from.port, '127.0.0.1');
    await connecting;
    expect(client.peerId).toBe(3);
    expect(client.token).toBe(token);
    expect(client.protocol).toBe('v1'); // a plain accept: the server is a reference server

    // compact JSON from the server is accepted too; a wrong token is not
    py.socket.send(build(0, token, 0, 0, 0, '{"type":"snapshot","payload":{"x":1}}'), request.from.port, '127.0.0.1');
    py.socket.send(
      build(0, token + 1n, 0, 0, 0, '{"type":"snapshot","payload":{"x":2}}'),
      request.from.port,
      '127.0.0.1',
    );
    await waitFor(() => got.length === 1, 2000, 'snapshot');
    expect(got).toEqual([{ x: 1 }]);

    client.send('input', { move: 'left' }, Channel.RELIABLE_UNORDERED);
    await waitFor(() => py.inbox.some((d) => d.channel === 2), 2000, 'client reliable');
    expect(py.inbox.find((d) => d.channel === 2)).toMatchObject({
      token,
      sequence: 0,
      ack: 0xffffffff,
      bits: 0,
      body: '{"type": "input", "payload": {"move": "left"}}',
    });

    py.socket.send(
      build(0, token, 0, 0, 0, '{"type": "__disconnect__", "payload": {}}'),
      request.from.port,
      '127.0.0.1',
    );
    await waitFor(() => reasons.length === 1, 2000, 'server disconnect');
    expect(client.state).toBe('idle');
  });
});
