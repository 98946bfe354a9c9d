import { describe, expect, it } from 'vitest';
import { Client, ConnectError } from '../../../main/net/index';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';

// A path that cannot be opened (the socket seam's openSocket rejects: a fresh internet path the rendezvous turned
// away) fails the join in the reach's own words, not the transport's "could not reach". Nothing is sent: no
// socket ever opens, and the address is loopback.
const busy = new IpcError(IpcErrorCode.UNAVAILABLE, 'Too many requests to the rendezvous service from this address.');
const refusing = (error: Error) => ({
  openSocket: async (): Promise<never> => {
    throw error;
  },
});

describe('a path that cannot be opened', () => {
  it('fails the connect with that error as its cause', async () => {
    const client = new Client(refusing(busy));
    const failure = await client.connect('127.0.0.1', 9, { timeout: 2 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).cause).toBe(busy);
    expect((failure as ConnectError).reason).toMatch(/could not connect: Too many requests/);
    await client.close();
  });

  it('fails a join in the reach’s words when the reach said why', async () => {
    const join = (transport: ReturnType<typeof refusing>) =>
      LobbyGuest.join({ host: '127.0.0.1', port: 9, playerName: 'Ada', colour: '#5b8cff', timeout: 2, transport });
    await expect(join(refusing(busy))).rejects.toBe(busy);
    // Any other failure to open stays the transport's: "could not reach", with the cause in the details.
    await expect(join(refusing(new Error('EPERM: not allowed')))).rejects.toMatchObject({
      code: 'unreachable',
      detail: expect.stringMatching(/EPERM/),
    });
  });
});
