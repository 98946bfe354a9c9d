import { Channel, Client } from '../../main/net/index';
import { waitFor } from './waitFor';

/** One lobby message a probe received. */
export interface LobbyReceived {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

/** A transport client on 127.0.0.1 that speaks the lobby only when told, recording the host's answers. */
export interface LobbyProbe {
  readonly client: Client;
  readonly received: LobbyReceived[];
  say(type: string, payload: object): void;
  /** The first message of one of `types` received from now on (rejects after `timeoutMs`). */
  next(types: readonly string[], timeoutMs?: number): Promise<LobbyReceived>;
  close(): Promise<void>;
}

const HOST_TYPES = ['lobby.challenge', 'lobby.welcome', 'lobby.rejected', 'lobby.event', 'lobby.closing'];

/** Connects a probe to a room on 127.0.0.1:`port`. */
export async function lobbyProbe(port: number, timeoutSec = 2): Promise<LobbyProbe> {
  const client = new Client();
  const received: LobbyReceived[] = [];
  for (const type of HOST_TYPES) client.onMessage(type, (payload) => received.push({ type, payload }));
  let gone = false;
  client.onDisconnect(() => (gone = true));
  await client.connect('127.0.0.1', port, { timeout: timeoutSec });
  return {
    client,
    received,
    say: (type, payload) => client.send(type, payload as never, Channel.RELIABLE_ORDERED),
    async next(types, timeoutMs = 2000) {
      const from = received.length;
      const find = () => received.slice(from).find((r) => types.includes(r.type));
      await waitFor(() => find() !== undefined || gone, timeoutMs, types.join(' or '));
      const found = find();
      if (!found) throw new Error(`closed before ${types.join(' or ')}`);
      return found;
    },
    close: () => client.close(),
  };
}
