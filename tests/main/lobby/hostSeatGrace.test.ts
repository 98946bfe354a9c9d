import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client } from '../../../main/net/index';
import { lobbyViewSchema, SEAT_GRACE, type LobbyView } from '../../../shared/ipc/schemas/lobby';
import { LOBBY_PROTOCOL_VERSION } from '../../../shared/lobby/lobbyState';
import { testBackend } from '../../support/testBackend';
import { waitFor } from '../../support/waitFor';

// The host's seat grace from the IPC call (as the host form sends it) to the room: the view reports it, and the
// welcome the room gives a guest (the grace its seat is held for) carries it. A backend on loopback.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const ctx = { transport: 'electron' } as const;

/** Hosts through the gateway; the view it leads to. */
async function hostWith(input: Record<string, unknown>): Promise<LobbyView> {
  const backend = await testBackend(cleanups);
  const result = await backend.gateway.dispatch('lobby.host', input, ctx);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return lobbyViewSchema.parse(backend.lobby.view());
}

/** The graceSec of the welcome the room at `port` gives a new guest. */
async function welcomeGrace(port: number): Promise<unknown> {
  const client = new Client();
  cleanups.push(() => client.close());
  let welcome: Record<string, unknown> | undefined;
  client.onMessage('lobby.welcome', (payload) => (welcome = payload));
  await client.connect('127.0.0.1', port, { timeout: 2 });
  client.send(
    'lobby.hello',
    { v: LOBBY_PROTOCOL_VERSION, name: 'Gus', colour: '#3ddc97' } as never,
    Channel.RELIABLE_ORDERED,
  );
  await waitFor(() => welcome !== undefined, 5000, 'the welcome');
  return welcome!.graceSec;
}

describe('the seat grace a host chooses', () => {
  it('reaches the room: the view reports it and a guest is welcomed with it', async () => {
    const view = await hostWith({ seatGraceSec: 45 });
    expect(view.seatGraceSec).toBe(45);
    expect(await welcomeGrace(view.port!)).toBe(45);
  });

  it('0 is a choice too (seats given up at once); absent, the default 30 s', async () => {
    const none = await hostWith({ seatGraceSec: 0 });
    expect(none.seatGraceSec).toBe(0);
    expect(await welcomeGrace(none.port!)).toBe(0);
    const plain = await hostWith({});
    expect(plain.seatGraceSec).toBe(SEAT_GRACE.DEFAULT);
    expect(await welcomeGrace(plain.port!)).toBe(SEAT_GRACE.DEFAULT);
  });
});
