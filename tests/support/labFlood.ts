import { expect } from 'vitest';
import { Channel, Client, type EndpointOptions, type Server } from '../../main/net/index';
import { rawPeer, type RawPeer } from './labRawPeer';
import { waitFor } from './waitFor';

/** Opens one raw socket per address in `hosts` (all in 127.0.0.0/8); none answers anything. */
export async function flooders(
  serverPort: number,
  hosts: readonly string[],
  cleanups: Array<() => unknown>,
): Promise<RawPeer[]> {
  const peers: RawPeer[] = [];
  for (const host of hosts) {
    const p = await rawPeer(serverPort, host, 64);
    p.answerPings = false;
    cleanups.push(() => p.close());
    peers.push(p);
  }
  return peers;
}

/** A real client that echoes reliably through `server`, and a way to run n round trips. */
export function echoClient(server: Server, options: EndpointOptions, cleanups: Array<() => unknown>, timeout = 5) {
  server.onMessage('echo', (peer, m) => server.sendTo(peer.id, 'echo', m, Channel.RELIABLE_ORDERED));
  const client = new Client(options);
  cleanups.push(() => client.close());
  const back: number[] = [];
  client.onMessage('echo', (m) => back.push(m.i as number));
  let disconnected = '';
  client.onDisconnect((r) => (disconnected = r));
  /**
   * Sends n reliable echoes and waits for all of them back, or for the link to drop (then says why). `timeoutMs`
   * only ends an exchange that never completes: under a flood, how long the echoes take is the machine's.
   */
  const roundTrips = async (n: number, timeoutMs = 5000) => {
    const from = back.length;
    for (let i = from; i < from + n; i++) client.send('echo', { i }, Channel.RELIABLE_ORDERED);
    await waitFor(() => back.length === from + n || disconnected !== '', timeoutMs, `${n} echoes`);
    expect(disconnected, 'the echo client was disconnected').toBe('');
    expect(back).toEqual([...Array(from + n).keys()]);
  };
  return {
    client,
    connect: () => client.connect('127.0.0.1', server.port, { timeout }),
    roundTrips,
    disconnected: () => disconnected,
  };
}
