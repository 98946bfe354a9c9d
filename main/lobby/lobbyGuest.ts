import { Channel, Client, ConnectError, linkLost, type EndpointOptions } from '../net/index';
import { Listeners, reportCallbackError } from '../base/listeners';
import { silentLogger, type Logger } from '../base/logger';
import { GAMES } from '../../shared/games/registry';
import { applyLobbyEvent } from '../../shared/lobby/lobbyReducer';
import { LOBBY_PROTOCOL_VERSION, type LobbyState } from '../../shared/lobby/lobbyState';
import { LobbyMessage, chatTextSchema, helloPayload, hostMessageSchemas } from '../../shared/lobby/lobbyMessages';
import { describeIssues } from '../../shared/ipc/describeIssues';
import {
  JOIN_DROPPED_MESSAGE,
  LOBBY_END_MESSAGES,
  LobbyJoinError,
  tooManyTriesMessage,
  type LobbyEndCode,
} from './lobbyErrors';
import { lobbyTransportOptions, offersNative } from './lobbyTransport';
import { errnoIn, networkErrorSentence } from '../base/networkErrorSentence';
import { GuestPasswordCheck } from './guestPassword';
import { versionMismatchMessage } from './versionMismatch';
import { ResumableLink } from '../seats/resumableLink';
import { takeSeatBack } from '../seats/rejoinSeat';
import { markedAway } from '../seats/awaySeat';
import { PendingChat } from '../seats/pendingChat';
import { isFinalRefusal, seatLostEnd } from './seatReturn';
import { systemScheduler, type Scheduler } from '../base/scheduler';
import { watchOwnLink } from './guestQuietLink';
import { IpcError } from '../../shared/ipc/errors';

/** Options of {@link LobbyGuest.join}. */
export interface LobbyJoinOptions {
  host: string;
  port: number;
  playerName: string;
  colour: string;
  /** Only ever used to answer the host's challenge: it is never sent. */
  password?: string;
  /** This app's version, sent in the hello and compared with the host's when it refuses another version. */
  appVersion?: string;
  /** Seconds to wait for the host to connect and answer. Default 5. */
  timeout?: number;
  /** A shorter wait for the connect alone, and the error to fail with when it passes (a reach's stale code). */
  connectWithin?: { readonly seconds: number; readonly failure: Error };
  transport?: Omit<EndpointOptions, 'drive'>;
  /** Where a room the host sent and we refused is reported. Default silent. */
  logger?: Logger;
  /** The resume token of a seat to come back to (set by the guest itself when its link went silent). */
  resume?: string;
  /** Timers of coming back to the seat after losing the link; default the real ones. */
  scheduler?: Scheduler;
  /** Seconds each try to take the seat back may take (the grace bounds the whole); default 2, more for a new ICE path. */
  rejoinTimeout?: number;
}

/** How a stay in a room ended. */
export interface LobbyEnd {
  code: LobbyEndCode;
  message: string;
}

type Welcome = { you: number; state: LobbyState; resume?: string; graceSec?: number };
type Admission = Welcome | LobbyJoinError;

const invalidRoom = () => new LobbyJoinError('invalid-room', LOBBY_END_MESSAGES['invalid-room']);

/** The refusal to join a room whose game this build does not have (a newer LAN Party's game); undefined if known. */
function unknownGame(gameId: string): LobbyJoinError | undefined {
  if (GAMES.has(gameId)) return undefined;
  return new LobbyJoinError(
    'version-mismatch',
    `This room plays “${gameId.slice(0, 64)}”, a game this version of LAN Party does not have. Update LAN Party to join.`,
  );
}

/** This machine's seat in someone else's room: the client and the replayed lobby state; it rejoins by itself. */
// A silent link: back to the seat on a new connection (the welcome's resume token); the game's `transport` carries on.
export class LobbyGuest {
  private stateValue: LobbyState;
  private readonly stateListeners = new Listeners<[LobbyState]>(reportCallbackError);
  private readonly endListeners = new Listeners<[LobbyEnd]>(reportCallbackError);
  private readonly link: ResumableLink<Client>;
  private ended: LobbyEnd | undefined;
  private resumeToken: string | undefined;
  private readonly pendingChat = new PendingChat();
  private readonly graceSec: number;

  private constructor(
    client: Client,
    /** Our player id in the room. */
    readonly you: number,
    welcome: Welcome,
    private readonly options: LobbyJoinOptions,
    logger: Logger,
  ) {
    this.stateValue = welcome.state;
    this.resumeToken = welcome.resume;
    this.graceSec = welcome.graceSec ?? 0;
    this.link = new ResumableLink(client);
    this.link.onMessage(LobbyMessage.EVENT, (payload) => {
      if (this.ended) return;
      const parsed = hostMessageSchemas[LobbyMessage.EVENT].safeParse(payload);
      if (!parsed.success) {
        logger.warn(`the host sent an invalid lobby event: ${describeIssues(parsed.error)}`);
        return this.end('invalid-room');
      }
      const next = applyLobbyEvent(this.stateValue, parsed.data.event);
      if (parsed.data.event.kind === 'chat') this.pendingChat.shown(parsed.data.event.line, this.you);
      // Each event is bounded; the room it builds must stay so too (12,000 "joined" events are not a room).
      if (next.players.length > next.capacity) {
        logger.warn(`the host's room grew past its capacity of ${next.capacity}`);
        return this.end('invalid-room');
      }
      this.stateValue = next;
      this.stateListeners.emit(this.stateValue);
    });
    this.link.onMessage(LobbyMessage.CLOSING, (payload) => {
      const parsed = hostMessageSchemas[LobbyMessage.CLOSING].safeParse(payload);
      const code: LobbyEndCode = parsed.success && parsed.data.reason === 'kicked' ? 'kicked' : 'host-closed';
      this.end(code);
    });
    this.watch(client);
    watchOwnLink(this, (state) => this.stateListeners.emit((this.stateValue = state)), options.transport);
  }

  /** Follows a connection's end: a silent link means coming back to the seat, anything else ends the stay. */
  private watch(client: Client): void {
    client.onDisconnect((_reason, kind) => {
      if (this.ended || client !== this.link.current) return;
      const silent = linkLost(kind);
      if (silent && this.resumeToken !== undefined && this.graceSec > 0) void this.comeBack();
      else this.end(silent ? 'host-gone' : 'host-closed');
    });
  }

  /** Whether the link is down and the guest is trying to take its seat back. */
  get reconnecting(): boolean {
    return !this.ended && !this.link.isConnected;
  }

  /** Tries to take the seat back (once a second, for the host's grace), then carries on or ends the stay. */
  private async comeBack(): Promise<void> {
    this.link.lost();
    this.stateValue = markedAway(this.stateValue, this.you, Date.now() + this.graceSec * 1000);
    this.stateListeners.emit(this.stateValue);
    const outcome = await takeSeatBack({
      you: this.you,
      graceSec: this.graceSec,
      scheduler: this.options.scheduler ?? systemScheduler,
      wanted: () => !this.ended,
      isFinal: isFinalRefusal,
      enter: () =>
        LobbyGuest.enter({ ...this.options, resume: this.resumeToken, timeout: this.options.rejoinTimeout ?? 2 }),
      notOurs: () => new LobbyJoinError('seat-gone', LOBBY_END_MESSAGES['seat-gone']),
    });
    if (this.ended) return;
    if (!outcome.ok) return this.end(...seatLostEnd(outcome.error, this.graceSec));
    const { client, answer } = outcome.value;
    void this.link.swap(client).close();
    this.watch(client);
    this.resumeToken = answer.resume;
    this.stateValue = answer.state;
    // Our lines the dead connection took but never delivered: sent again, in order, once.
    for (const text of this.pendingChat.afterReturn(answer.state.chat, this.you))
      this.link.send(LobbyMessage.CHAT, { text }, Channel.RELIABLE_ORDERED);
    this.options.logger?.info(`back in the room after ${Math.round(outcome.tookMs)} ms (${outcome.tries} tries)`);
    this.stateListeners.emit(this.stateValue);
  }

  /** Connects, says hello (answering a password challenge) and waits for the welcome. Rejects with a {@link LobbyJoinError}. */
  static async join(options: LobbyJoinOptions): Promise<LobbyGuest> {
    const { client, answer } = await LobbyGuest.enter(options);
    return new LobbyGuest(client, answer.you, answer, options, options.logger ?? silentLogger);
  }

  /** One connection and its admission: the welcome, or a {@link LobbyJoinError} (the client closed). */
  private static async enter(options: LobbyJoinOptions): Promise<{ client: Client; answer: Welcome }> {
    const timeout = options.timeout ?? 5;
    const logger = options.logger ?? silentLogger;
    const transport = lobbyTransportOptions(options.transport);
    const client = new Client({ ...transport, timeout: transport.timeout ?? Math.max(timeout, 5) });
    try {
      await client.connect(options.host, options.port, { timeout: options.connectWithin?.seconds ?? timeout });
    } catch (error) {
      await client.close();
      // The reach knows why this room would not answer (the machine hosts another now): its words, not ours.
      if (options.connectWithin) throw options.connectWithin.failure;
      // Likewise why it could not open a path (a fresh internet path the rendezvous turned away).
      if (error instanceof ConnectError && error.cause instanceof IpcError) throw error.cause;
      const reason = error instanceof ConnectError ? error.reason : String(error);
      if (error instanceof ConnectError && (error.kind === 'unresolved' || error.kind === 'socket-failed')) {
        // The errno becomes a sentence; the transport's own words stay behind the player's "Details".
        const errno = errnoIn(reason);
        const message = errno ? networkErrorSentence(errno) : LOBBY_END_MESSAGES.unreachable;
        throw new LobbyJoinError('unreachable', message, reason);
      }
      throw new LobbyJoinError('timeout', LOBBY_END_MESSAGES.timeout, reason);
    }
    const answer = await LobbyGuest.admission(client, options, timeout, logger);
    const refusal = answer instanceof LobbyJoinError ? answer : unknownGame(answer.state.gameId);
    if (refusal !== undefined || answer instanceof LobbyJoinError) {
      await client.close();
      throw refusal;
    }
    return { client, answer };
  }

  /** Sends the hello and waits for the welcome, a rejection, or (in a password room) a challenge to answer. */
  private static admission(client: Client, options: LobbyJoinOptions, timeout: number, logger: Logger) {
    return new Promise<Admission>((resolve) => {
      const timer = setTimeout(() => done(new LobbyJoinError('timeout', LOBBY_END_MESSAGES.timeout)), timeout * 1000);
      const password = new GuestPasswordCheck(client, options.password, logger);
      const done = (value: Admission) => {
        clearTimeout(timer);
        offs.forEach((off) => off());
        resolve(value);
      };
      const offs = [
        client.onMessage(LobbyMessage.WELCOME, (payload) => {
          const parsed = hostMessageSchemas[LobbyMessage.WELCOME].safeParse(payload);
          if (parsed.success) return done(password.welcome(parsed.data, options.resume !== undefined) ?? parsed.data);
          logger.warn(`the host sent an invalid room: ${describeIssues(parsed.error)}`);
          done(invalidRoom());
        }),
        client.onMessage(LobbyMessage.CHALLENGE, (payload) => {
          password.challenge(payload).then(
            (answer) =>
              answer.kind === 'prove'
                ? client.send(LobbyMessage.PROOF, answer.proof, Channel.RELIABLE_ORDERED)
                : answer.kind === 'refuse' && done(answer.error),
            (error: unknown) => logger.warn('could not answer the password challenge', error),
          );
        }),
        client.onMessage(LobbyMessage.REJECTED, (payload) => {
          const parsed = hostMessageSchemas[LobbyMessage.REJECTED].safeParse(payload);
          // A reason we do not know comes from another version of LAN Party.
          const code: LobbyEndCode = parsed.success ? parsed.data.reason : 'version-mismatch';
          const wait = parsed.success ? parsed.data.retryAfterSec : undefined;
          const message =
            code === 'version-mismatch'
              ? versionMismatchMessage({
                  hostApp: parsed.data?.hostApp,
                  hostProtocol: parsed.data?.hostProtocol,
                  ourApp: options.appVersion,
                  ourProtocol: LOBBY_PROTOCOL_VERSION,
                })
              : code === 'too-many-tries' && wait !== undefined
                ? tooManyTriesMessage(wait)
                : // Why a seat is gone only the host knows (away too long, another address…); bounded by the schema.
                  code === 'seat-gone' && parsed.success && parsed.data.message.trim() !== ''
                  ? parsed.data.message
                  : LOBBY_END_MESSAGES[code];
          const waitMs = parsed.data?.retryAfterMs ?? (wait === undefined ? undefined : wait * 1000);
          done(new LobbyJoinError(code, message, undefined, code === 'too-many-tries' ? waitMs : undefined));
        }),
        client.onDisconnect(() => done(new LobbyJoinError('host-closed', JOIN_DROPPED_MESSAGE))),
      ];
      client.send(
        LobbyMessage.HELLO,
        helloPayload(options.playerName, options.colour, options.appVersion, options.resume, offersNative(options)),
        Channel.RELIABLE_ORDERED,
      );
    });
  }

  /** The room as the host last described it. */
  get state(): LobbyState {
    return this.stateValue;
  }

  /** How the stay ended, once it has. */
  get endReason(): LobbyEnd | undefined {
    return this.ended;
  }

  /** The link to the room, for the game to share: it carries on over a new connection when the guest comes back. */
  get transport(): ResumableLink<Client> {
    return this.link;
  }

  /** Called with every new state. */
  onState(callback: (state: LobbyState) => void): () => void {
    return this.stateListeners.add(callback);
  }

  /** Called once when the stay ends for any reason but our own `leave()`. */
  onEnd(callback: (end: LobbyEnd) => void): () => void {
    return this.endListeners.add(callback);
  }

  /** Sets our ready flag; refused (an IpcError saying so) while coming back to the seat. */
  setReady(ready: boolean): void {
    this.link.assertConnected('Your ready state was not changed');
    this.link.send(LobbyMessage.READY, { ready }, Channel.RELIABLE_ORDERED);
  }

  /** Sends a chat line; throws on empty or over-long text, and (visibly, never lost silently) while reconnecting. */
  chat(text: string): void {
    const line = chatTextSchema.parse(text);
    this.link.assertConnected('Your message was not sent');
    this.pendingChat.sent(line);
    this.link.send(LobbyMessage.CHAT, { text: line }, Channel.RELIABLE_ORDERED);
  }

  /** Leaves the room, telling the host. */
  async leave(): Promise<void> {
    this.ended ??= { code: 'left', message: LOBBY_END_MESSAGES.left };
    this.link.end(this.ended.message);
    await this.link.current.close();
  }

  private end(code: LobbyEndCode, message = LOBBY_END_MESSAGES[code]): void {
    if (this.ended) return;
    this.ended = { code, message };
    void this.link.current.close();
    this.link.end(message);
    this.endListeners.emit(this.ended);
  }
}
