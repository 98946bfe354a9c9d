import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, createMemoryNetwork } from '../../../main/net/index';
import type { Logger } from '../../../main/base/logger';
import { loopbackHost, type Cleanups } from '../../support/loopbackRoom';
import { startMemoryNat } from '../../support/memoryNat';
import { waitFor } from '../../support/waitFor';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOST = '10.9.0.1';

describe('lobby host: a guest whose address changes', () => {
  it('logs "peer N moved a → b" once the transport moved the peer', async () => {
    const network = createMemoryNetwork();
    const lines: string[] = [];
    const logger: Logger = { info: (m) => lines.push(m), warn: () => undefined, error: () => undefined };
    const host = await loopbackHost(cleanups, {
      bindAddress: HOST,
      advertiseAddress: HOST,
      helloTimeout: 30,
      transport: { openSocket: network.openSocket },
      logger,
    });
    const port = host.transport.port;
    const nat = await startMemoryNat(network.openSocket, { address: HOST, port }, '10.0.0.1', '198.51.100.7');
    cleanups.push(() => nat.close());
    const client = new Client({ openSocket: network.openSocket });
    cleanups.push(() => client.close());
    await client.connect(nat.inside.address, nat.inside.port, { timeout: 5 });
    expect(client.protocol).toBe('native');
    const peer = host.transport.getPeer(client.peerId!)!;
    const before = peer.endpoint;
    expect(lines.filter((l) => l.includes('moved'))).toEqual([]);
    await nat.rebind('203.0.113.50');
    // Anything the guest sends now leaves from the new mapping (an unknown type: the host ignores it).
    client.send('nudge', {}, Channel.RELIABLE_ORDERED);
    await waitFor(() => peer.endpoint !== before, 10_000, 'the move');
    expect(peer.endpoint).toBe(`${nat.outside.address}:${nat.outside.port}`);
    expect(lines.filter((l) => l.includes('moved'))).toEqual([`peer ${peer.id} moved ${before} → ${peer.endpoint}`]);
  }, 20_000);
});
