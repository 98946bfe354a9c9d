import { Client, type EndpointOptions, type Server } from '../../main/net/index';
import type { Link } from '../../main/net/v1/link';
import { clientConnection } from './labInspect';
import { startTapRelay, type TapRelay } from './labTapRelay';

/**
 * A client session behind its own tap relay that, when the transport ends it, starts over through a fresh
 * relay (so nothing of the old session's address lingers), up to `maxRespawns` times. For fuzzing a session
 * with valid-token garbage that the protocol may legitimately answer by ending the session.
 */
export class RespawningSession {
  relay: TapRelay | undefined;
  client: Client | undefined;
  /** Why each ended session ended (as the client heard it). */
  readonly closures: string[] = [];
  /** Every connection either side had, so their counters can be summed at the end. */
  readonly links: Link[] = [];
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly server: Server,
    private readonly options: EndpointOptions,
    private readonly maxRespawns: number,
  ) {}

  /** Connects the first session. */
  async start(): Promise<void> {
    await this.connect();
  }

  /** True while a session is up (not between an ending and the next connect). */
  get connected(): boolean {
    return this.client?.state === 'connected' && this.connecting === undefined;
  }

  get token(): bigint | undefined {
    return this.client?.token;
  }

  get peerId(): number | undefined {
    return this.client?.peerId;
  }

  /** Resolves once no respawn is in progress. */
  async settled(): Promise<void> {
    while (this.connecting) await this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
    await this.client?.close();
    await this.relay?.close();
  }

  private async connect(): Promise<void> {
    const relay = await startTapRelay(this.server.port);
    const client = new Client(this.options);
    this.relay = relay;
    this.client = client;
    // The client forgets its peer id when the session ends; the server-side peer is found by the one it had.
    const session = { peerId: 0 };
    client.onDisconnect((reason) => {
      this.closures.push(reason);
      if (!this.closed && this.closures.length <= this.maxRespawns) this.respawn(client, relay, session.peerId);
    });
    await client.connect('127.0.0.1', relay.port);
    session.peerId = client.peerId!;
    this.links.push(clientConnection(client)!, this.server.getPeer(session.peerId)!.connection);
  }

  private respawn(old: Client, relay: TapRelay, oldPeerId: number): void {
    const connecting = (async () => {
      await old.close();
      // The client's goodbye is on its way through the relay; a server peer it missed would hold a slot until
      // its timeout, so after a moment the harness ends it itself.
      for (let i = 0; i < 50 && this.server.getPeer(oldPeerId); i++) await new Promise((r) => setTimeout(r, 10));
      this.server.disconnect(oldPeerId, 'fuzz harness: the client side of this session ended');
      await relay.close();
      await this.connect();
    })();
    this.connecting = connecting;
    void connecting.finally(() => {
      if (this.connecting === connecting) this.connecting = undefined;
    });
  }
}
