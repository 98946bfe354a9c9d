import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { literalFirstLookup, openUdpSocket, TrackedSender } from '../../../../main/net/endpoint/udpSocket';

const opened: Socket[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close(() => undefined);
});

async function sink(): Promise<{ port: number; received: Buffer[] }> {
  const socket = createSocket('udp4');
  opened.push(socket);
  const received: Buffer[] = [];
  socket.on('message', (data) => received.push(data));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { port: socket.address().port, received };
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('literalFirstLookup', () => {
  it('answers an IPv4 literal before returning', () => {
    const answers: unknown[][] = [];
    literalFirstLookup('127.0.0.1', { family: 4 }, (...args) => answers.push(args));
    expect(answers).toEqual([[null, '127.0.0.1', 4]]);
  });

  it('hands a name to dns.lookup (localhost: from the hosts file, no query leaves the machine)', async () => {
    const answer = new Promise<unknown[]>((r) => literalFirstLookup('localhost', { family: 4 }, (...args) => r(args)));
    expect(await answer).toEqual([null, '127.0.0.1', 4]);
  });
});

describe('TrackedSender', () => {
  it('sends to an address and to the connected peer, counting sends until they complete', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const errors: number[] = [];
    const sender = new TrackedSender(socket, () => errors.push(1));
    sender.send(Buffer.from('to-address'), far.port, '127.0.0.1');
    expect(sender.inFlight).toBe(1);
    await until(() => far.received.length === 1);
    await new Promise<void>((r) => socket.connect(far.port, '127.0.0.1', r));
    sender.send(Buffer.from('to-peer'));
    await until(() => far.received.length === 2);
    expect(far.received.map(String)).toEqual(['to-address', 'to-peer']);
    expect(sender.inFlight).toBe(0);
    expect(errors).toEqual([]);
    await sender.close();
  });

  it('reports a failed send (which Node drops without a callback) and keeps sending after it', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    let errors = 0;
    const sender = new TrackedSender(socket, () => (errors += 1));
    sender.send(Buffer.alloc(70_000), far.port, '127.0.0.1'); // over UDP's 65,507-byte limit: EMSGSIZE
    sender.send(Buffer.from('after'), far.port, '127.0.0.1');
    await until(() => errors === 1 && far.received.length === 1);
    expect(errors).toBe(1);
    expect(far.received.map(String)).toEqual(['after']);
    expect(sender.inFlight).toBe(0);
    await sender.close();
  });

  it('says whether the OS took the bytes at once, so the caller may reuse them', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const sender = new TrackedSender(socket, () => undefined);
    const bytes = Uint8Array.from(Buffer.from('first'));
    expect(sender.send(bytes, far.port, '127.0.0.1')).toBe(true);
    bytes.set(Buffer.from('again')); // reused at once: what left must still read 'first'
    expect(sender.send(bytes, far.port, '127.0.0.1')).toBe(true);
    await until(() => far.received.length === 2);
    expect(far.received.map(String)).toEqual(['first', 'again']);
    // With libuv's queue holding a send (as when the socket buffer is full), the bytes are not free.
    await new Promise<void>((r) => socket.connect(far.port, '127.0.0.1', r));
    expect(sender.send(Buffer.from('connected'))).toBe(true);
    const queued = Object.assign(Object.create(socket) as typeof socket, { getSendQueueCount: () => 1 });
    expect(new TrackedSender(queued, () => undefined).send(Buffer.from('x'))).toBe(false);
    await until(() => far.received.length === 4);
    await sender.close();
  });

  it('does not call bytes free when the address lookup deferred the send', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const sender = new TrackedSender(socket, () => undefined);
    expect(sender.send(Buffer.from('by name'), far.port, 'localhost')).toBe(false); // dns.lookup answers later
    expect(sender.send(Buffer.from('by literal'), far.port, '127.0.0.1')).toBe(true);
    // A socket not made by openUdpSocket looks up even literals later (dns.lookup's next tick).
    const plain = createSocket('udp4');
    await new Promise<void>((r) => plain.bind(0, '127.0.0.1', r));
    const plainSender = new TrackedSender(plain, () => undefined);
    expect(plainSender.send(Buffer.from('plain'), far.port, '127.0.0.1')).toBe(false);
    await until(() => far.received.length === 3);
    expect(far.received.map(String).sort()).toEqual(['by literal', 'by name', 'plain']);
    await sender.close();
    await plainSender.close();
  });

  it('closes the socket, and a second close does not throw', async () => {
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const sender = new TrackedSender(socket, () => undefined);
    await sender.close();
    expect(() => socket.address()).toThrow();
    await expect(sender.close()).resolves.toBeUndefined();
  });
});
