import { Channel, Client, ConnectError, type EndpointOptions } from '../net/index';
import { Listeners, reportCallbackError } from '../base/listeners';
import { applyLobbyEvent } from '../../shared/lobby/lobbyReducer';
import { LOBBY_PROTOCOL_VERSION, type LobbyState } from '../../shared/lobby/lobbyState';
import {
  LobbyMessage,
  chatTextSchema,
  helloPayload,
  hostMessageSchemas,
  type RejectReason,
} from '../../shared/lobby/lobbyMessages';
import { LOBBY_END_MESSAGES, LobbyJoinError, type LobbyEndCode } from './lobbyErrors';
import { versionMismatchMessage } from './versionMismatch';

/** Options of {@link LobbyGuest.join}. */
export interface LobbyJoinOptions {
  host: string;
  port: number;
  playerName: string;
  colour: string;
  password?: string;
  /** This app's version, sent in the hello and compared with the host's when it refuses another version. */
  appVersion?: string;
  /** Seconds to wait for the host to connect and answer. Default 5. */
  timeout?: number;
  transport?: Omit<EndpointOptions, 'drive'>;
}

/** How a stay in a room ended. */
export interface LobbyEnd {
  code: LobbyEndCode;
  message: string;
}

/** This machine's seat in someone else's room: the transport client plus the replayed lobby state. */
export class LobbyGuest {
  private stateValue: LobbyState;
  private readonly stateListeners = new Listeners<[LobbyState]>(reportCallbackError);
  private readonly endListeners = new Listeners<[LobbyEnd]>(reportCallbackError);
  private ended: LobbyEnd | undefined;

  private constructor(
    private readonly client: Client,
    /** Our player id in the room. */
    readonly you: number,
    state: LobbyState,
  ) {
    this.stateValue = state;
    client.onMessage(LobbyMessage.EVENT, (payload) => {
      const parsed = hostMessageSchemas[LobbyMessage.EVENT].safeParse(payload);
      if (!parsed.success) return;
      this.stateValue = applyLobbyEvent(this.stateValue, parsed.data.event);
      this.stateListeners.emit(this.stateValue);
    });
    client.onMessage(LobbyMessage.CLOSING, (payload) => {
      const parsed = hostMessageSchemas[LobbyMessage.CLOSING].safeParse(payload);
      const code: LobbyEndCode = parsed.success && parsed.data.reason === 'kicked' ? 'kicked' : 'host-closed';
      this.end(code);
    });
    client.onDisconnect((reason) => this.end(/timed out|not acknowledged/.test(reason) ? 'host-gone' : 'host-closed'));
  }

  /** Connects, says hello and waits for the welcome. Rejects with a {@link LobbyJoinError} saying why not. */
  static async join(options: LobbyJoinOptions): Promise<LobbyGuest> {
    const timeout = options.timeout ?? 5;
    const client = new Client({ ...options.transport, timeout: options.transport?.timeout ?? Math.max(timeout, 5) });
    try {
      await client.connect(options.host, options.port, { timeout });
    } catch (error) {
      await client.close();
      const reason = error instanceof ConnectError ? error.reason : String(error);
      if (/could not resolve|could not connect/.test(reason))
        throw new LobbyJoinError('unreachable', `${LOBBY_END_MESSAGES.unreachable} (${reason})`);
      throw new LobbyJoinError('timeout', LOBBY_END_MESSAGES.timeout);
    }
    const answer = await new Promise<{ you: number; state: LobbyState } | LobbyJoinError>((resolve) => {
      const timer = setTimeout(
        () => resolve(new LobbyJoinError('timeout', LOBBY_END_MESSAGES.timeout)),
        timeout * 1000,
      );
      const done = (value: { you: number; state: LobbyState } | LobbyJoinError) => {
        clearTimeout(timer);
        offs.forEach((off) => off());
        resolve(value);
      };
      const offs = [
        client.onMessage(LobbyMessage.WELCOME, (payload) => {
          const parsed = hostMessageSchemas[LobbyMessage.WELCOME].safeParse(payload);
          if (parsed.success) done(parsed.data);
        }),
        client.onMessage(LobbyMessage.REJECTED, (payload) => {
          const parsed = hostMessageSchemas[LobbyMessage.REJECTED].safeParse(payload);
          const reason: RejectReason = parsed.success ? parsed.data.reason : 'version-mismatch';
          const code = reason as LobbyEndCode;
          const message =
            code === 'version-mismatch'
              ? versionMismatchMessage({
                  hostApp: parsed.data?.hostApp,
                  hostProtocol: parsed.data?.hostProtocol,
                  ourApp: options.appVersion,
                  ourProtocol: LOBBY_PROTOCOL_VERSION,
                })
              : (LOBBY_END_MESSAGES[code] ?? 'The host refused to let you in.');
          done(new LobbyJoinError(code, message));
        }),
        client.onDisconnect(() => done(new LobbyJoinError('host-closed', LOBBY_END_MESSAGES['host-closed']))),
      ];
      client.send(
        LobbyMessage.HELLO,
        helloPayload(options.playerName, options.colour, options.password, options.appVersion),
        Channel.RELIABLE_ORDERED,
      );
    });
    if (answer instanceof LobbyJoinError) {
      await client.close();
      throw answer;
    }
    return new LobbyGuest(client, answer.you, answer.state);
  }

  /** The room as the host last described it. */
  get state(): LobbyState {
    return this.stateValue;
  }

  /** How the stay ended, once it has. */
  get endReason(): LobbyEnd | undefined {
    return this.ended;
  }

  /** The transport client, for the game to share. */
  get transport(): Client {
    return this.client;
  }

  /** Called with every new state. */
  onState(callback: (state: LobbyState) => void): () => void {
    return this.stateListeners.add(callback);
  }

  /** Called once when the stay ends for any reason but our own `leave()`. */
  onEnd(callback: (end: LobbyEnd) => void): () => void {
    return this.endListeners.add(callback);
  }

  /** Sets our ready flag. */
  setReady(ready: boolean): void {
    this.client.send(LobbyMessage.READY, { ready }, Channel.RELIABLE_ORDERED);
  }

  /** Sends a chat line; throws on empty or over-long text. */
  chat(text: string): void {
    this.client.send(LobbyMessage.CHAT, { text: chatTextSchema.parse(text) }, Channel.RELIABLE_ORDERED);
  }

  /** Leaves the room, telling the host. */
  async leave(): Promise<void> {
    this.ended ??= { code: 'left', message: LOBBY_END_MESSAGES.left };
    await this.client.close();
  }

  private end(code: LobbyEndCode): void {
    if (this.ended) return;
    this.ended = { code, message: LOBBY_END_MESSAGES[code] };
    void this.client.close();
    this.endListeners.emit(this.ended);
  }
}
