import { connectionId, sessionSecret } from './resumeProof';
import { Channel, Client, ConnectError, linkLost, type EndpointOptions } from '../net/index';
import { Listeners, reportCallbackError } from '../base/listeners';
import { silentLogger, type Logger } from '../base/logger';
import { applyLobbyEvent } from '../../shared/lobby/lobbyReducer';
import type { LobbyState } from '../../shared/lobby/lobbyState';
import { LobbyMessage, chatTextSchema, helloPayload, hostMessageSchemas } from '../../shared/lobby/lobbyMessages';
import { describeIssues } from '../../shared/ipc/describeIssues';
import { LOBBY_END_MESSAGES, LobbyJoinError, type LobbyEndCode } from './lobbyErrors';
import { lobbyTransportOptions, offersNative } from './lobbyTransport';
import { errnoIn, networkErrorSentence } from '../base/networkErrorSentence';
import { ChallengeError, answerChallenge, systemRandom } from './passwordExchange';
import {
  initialGuestJoin,
  stepGuestJoin,
  type GuestJoinEffect,
  type GuestJoinInput,
  type GuestJoinState,
} from './guestJoin';
import { ResumableLink } from '../seats/resumableLink';
import { PendingChat } from '../seats/pendingChat';
import { systemScheduler, type Scheduler, type TimerHandle } from '../base/scheduler';
import { watchOwnLink } from './guestQuietLink';
import { systemWallClock, type WallClock } from '../base/wallClock';
import { IpcError } from '../../shared/ipc/errors';
import type { RandomBytes } from '../net/pake/index';

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
  /** The token and resume key of a seat to come back to on the first connection already (resumeProof.ts). */
  resume?: { readonly token: string; readonly key?: string | undefined };
  /** Timers of coming back to the seat after losing the link; default the real ones. */
  scheduler?: Scheduler;
  /** Milliseconds of the wall clock, for our row's "reconnecting…" countdown; default the system's. */
  wallClock?: WallClock;
  /** Seconds each try to take the seat back may take (the grace bounds the whole); default 2, more for a new ICE path. */
  rejoinTimeout?: number;
  /** CPace's ephemeral scalars; default the OS's CSPRNG. */
  random?: RandomBytes;
}

/** How a stay in a room ended. */
export interface LobbyEnd {
  code: LobbyEndCode;
  message: string;
}

/** A connect that failed, in the player's words (the reach's own error when it knows better). */
function connectFailure(error: unknown, options: LobbyJoinOptions): Error {
  // The reach knows why this room would not answer (the machine hosts another now): its words, not ours.
  if (options.connectWithin) return options.connectWithin.failure;
  // Likewise why it could not open a path (a fresh internet path the rendezvous turned away).
  if (error instanceof ConnectError && error.cause instanceof IpcError) return error.cause;
  const reason = error instanceof ConnectError ? error.reason : String(error);
  if (error instanceof ConnectError && (error.kind === 'unresolved' || error.kind === 'socket-failed')) {
    // The errno becomes a sentence; the transport's own words stay behind the player's "Details".
    const errno = errnoIn(reason);
    const message = errno ? networkErrorSentence(errno) : LOBBY_END_MESSAGES.unreachable;
    return new LobbyJoinError('unreachable', message, reason);
  }
  return new LobbyJoinError('timeout', LOBBY_END_MESSAGES.timeout, reason);
}

/**
 * This machine's seat in someone else's room: the shell of the join's pure step (guestJoin.ts), carrying out its
 * effects with the transport Client and the injected Scheduler, and the replayed lobby state of the stay. It
 * comes back to its seat by itself over a new connection when the link goes silent; the game's `transport`
 * carries on.
 */
export class LobbyGuest {
  private machine: GuestJoinState;
  private readonly scheduler: Scheduler;
  private readonly logger: Logger;
  private timer: TimerHandle | undefined;
  /** The connection of the try in progress, until it fails or becomes the room's. */
  private trying: { client: Client; offs: (() => void)[] } | undefined;
  /** The room's link, from the first welcome on (the guest exists for its caller only from then). */
  private link!: ResumableLink<Client>;
  private stateValue!: LobbyState;
  private readonly stateListeners = new Listeners<[LobbyState]>(reportCallbackError);
  private readonly endListeners = new Listeners<[LobbyEnd]>(reportCallbackError);
  private ended: LobbyEnd | undefined;
  private readonly pendingChat = new PendingChat();
  /** The first join's promise, until it settles. */
  private joining: { resolve: (guest: LobbyGuest) => void; reject: (error: unknown) => void } | undefined;

  private constructor(private readonly options: LobbyJoinOptions) {
    this.scheduler = options.scheduler ?? systemScheduler;
    this.logger = options.logger ?? silentLogger;
    this.machine = initialGuestJoin({
      passwordGiven: options.password !== undefined,
      offersNative: offersNative(options),
      timeoutSec: options.timeout ?? 5,
      rejoinTimeoutSec: options.rejoinTimeout ?? 2,
      retryMs: 1000,
      appVersion: options.appVersion,
      resume: options.resume,
    });
  }

  /** Connects, says hello (answering a password challenge) and waits for the welcome. Rejects with a {@link LobbyJoinError}. */
  static join(options: LobbyJoinOptions): Promise<LobbyGuest> {
    const guest = new LobbyGuest(options);
    return new Promise((resolve, reject) => {
      guest.joining = { resolve, reject };
      guest.feed({ kind: 'start' });
    });
  }

  /** Our player id in the room. */
  get you(): number {
    return this.machine.seat?.you ?? 0;
  }

  /** The token to come back to the seat with (tests read it). */
  private get resumeToken(): string | undefined {
    return this.machine.seat?.resume;
  }

  /** The seat's resume key (what a rejoin proves), for tests that come back on a connection of their own. */
  private get resumeKey(): string | undefined {
    return this.machine.seat?.key;
  }

  /** Whether the link is down and the guest is trying to take its seat back. */
  get reconnecting(): boolean {
    return !this.ended && !this.link.isConnected;
  }

  private feed(input: GuestJoinInput): void {
    const { state, effects } = stepGuestJoin(this.machine, input, this.scheduler.now());
    this.machine = state;
    for (const effect of effects) this.carryOut(effect);
  }

  private carryOut(effect: GuestJoinEffect): void {
    switch (effect.kind) {
      case 'connect':
        return this.connect(effect.attempt, effect.timeoutSec);
      case 'hello': {
        const hello = helloPayload(
          this.options.playerName,
          this.options.colour,
          this.options.appVersion,
          effect.resume,
          offersNative(this.options),
        );
        this.trying?.client.send(LobbyMessage.HELLO, hello, Channel.RELIABLE_ORDERED);
        return;
      }
      case 'derive':
        return this.derive(effect);
      case 'proof':
        this.trying?.client.send(LobbyMessage.PROOF, effect.proof, Channel.RELIABLE_ORDERED);
        return;
      case 'close':
        return this.dropTry();
      case 'wake':
        if (this.timer !== undefined) this.scheduler.clearTimer(this.timer);
        this.timer = this.scheduler.setTimer(
          () => {
            this.timer = undefined;
            this.feed({ kind: 'tick' });
          },
          Math.max(0, effect.at - this.scheduler.now()),
        );
        return;
      case 'entered':
        return this.entered(effect.welcome, effect.back);
      case 'away':
        return this.away(effect.graceSec);
      case 'end':
        return this.finish(effect.error);
      case 'warn':
        return this.logger.warn(effect.text);
    }
  }

  /** One connection: its admission's messages and its end go to the machine, tagged with the try. */
  private connect(attempt: number, timeoutSec: number): void {
    const transport = lobbyTransportOptions(this.options.transport);
    const client = new Client({ ...transport, timeout: transport.timeout ?? Math.max(timeoutSec, 5) });
    const offs = [
      client.onMessage(LobbyMessage.WELCOME, (payload) => this.feed({ kind: 'welcome', attempt, payload })),
      client.onMessage(LobbyMessage.CHALLENGE, (payload) => this.feed({ kind: 'challenge', attempt, payload })),
      client.onMessage(LobbyMessage.REJECTED, (payload) => this.feed({ kind: 'rejected', attempt, payload })),
    ];
    client.onDisconnect((_reason, kind) => this.feed({ kind: 'disconnected', attempt, silent: linkLost(kind) }));
    this.trying = { client, offs };
    const seconds = this.options.connectWithin?.seconds ?? timeoutSec;
    client.connect(this.options.host, this.options.port, { timeout: seconds }).then(
      () =>
        this.feed({
          kind: 'connected',
          attempt,
          protocol: client.protocol ?? 'v1',
          connection: connectionId(client.channelBinding, client.token ?? 0n),
          secret: sessionSecret(client.channelBinding, undefined),
        }),
      (error: unknown) => this.feed({ kind: 'failed', attempt, error: connectFailure(error, this.options) }),
    );
  }

  /** The room key's derivation and the CPace answer, off the step (async); the password stays here. */
  private derive(effect: Extract<GuestJoinEffect, { kind: 'derive' }>): void {
    const client = this.trying?.client;
    if (!client || this.options.password === undefined) return;
    const { attempt } = this.machine;
    const channel = {
      token: client.token ?? 0n,
      binding: client.channelBinding,
      protocol: effect.protocol,
      nativeOffered: effect.nativeOffered,
    };
    answerChallenge(this.options.password, effect.challenge, channel, this.options.random ?? systemRandom).then(
      (answer) => this.feed({ kind: 'answered', attempt, answer }),
      (error: unknown) => {
        if (error instanceof ChallengeError) return this.feed({ kind: 'unanswerable', attempt, why: error.message });
        this.logger.warn('could not answer the password challenge', error);
      },
    );
  }

  private dropTry(): void {
    const trying = this.trying;
    this.trying = undefined;
    if (!trying) return;
    trying.offs.forEach((off) => off());
    void trying.client.close();
  }

  /** The try's connection is the room's: the first join resolves, a rejoin moves the link over to it. */
  private entered(welcome: { state: LobbyState }, back: { tookMs: number; tries: number } | undefined): void {
    const { client, offs } = this.trying!;
    this.trying = undefined;
    offs.forEach((off) => off());
    this.stateValue = welcome.state;
    if (this.joining) {
      this.link = this.openLink(client);
      this.joining?.resolve(this);
      this.joining = undefined;
      return;
    }
    void this.link.swap(client).close();
    // Our lines the dead connection took but never delivered: sent again, in order, once.
    for (const text of this.pendingChat.afterReturn(welcome.state.chat, this.you))
      this.link.send(LobbyMessage.CHAT, { text }, Channel.RELIABLE_ORDERED);
    if (back) this.logger.info(`back in the room after ${Math.round(back.tookMs)} ms (${back.tries} tries)`);
    this.stateListeners.emit(this.stateValue);
  }

  /** The room's link, made of the first connection: the host's events and its closing notice. */
  private openLink(client: Client): ResumableLink<Client> {
    const link = new ResumableLink(client);
    link.onMessage(LobbyMessage.EVENT, (payload) => {
      if (this.ended) return;
      const parsed = hostMessageSchemas[LobbyMessage.EVENT].safeParse(payload);
      if (!parsed.success) {
        this.logger.warn(`the host sent an invalid lobby event: ${describeIssues(parsed.error)}`);
        return this.end('invalid-room');
      }
      const next = applyLobbyEvent(this.stateValue, parsed.data.event);
      if (parsed.data.event.kind === 'chat') this.pendingChat.shown(parsed.data.event.line, this.you);
      // Each event is bounded; the room it builds must stay so too (12,000 "joined" events are not a room).
      if (next.players.length > next.capacity) {
        this.logger.warn(`the host's room grew past its capacity of ${next.capacity}`);
        return this.end('invalid-room');
      }
      this.stateValue = next;
      this.stateListeners.emit(this.stateValue);
    });
    link.onMessage(LobbyMessage.CLOSING, (payload) => {
      const parsed = hostMessageSchemas[LobbyMessage.CLOSING].safeParse(payload);
      this.end(parsed.success && parsed.data.reason === 'kicked' ? 'kicked' : 'host-closed');
    });
    watchOwnLink(
      this,
      (state) => this.stateListeners.emit((this.stateValue = state)),
      this.options.transport,
      this.options.scheduler,
    );
    return link;
  }

  /** The link went silent: sends fail and our row shows away (wall-clock, for the countdown) for the grace. */
  private away(graceSec: number): void {
    this.link.lost();
    const awayUntil = (this.options.wallClock ?? systemWallClock)() + graceSec * 1000;
    const players = this.stateValue.players.map((p) => (p.id === this.you ? { ...p, awayUntil } : p));
    this.stateValue = { ...this.stateValue, players };
    this.stateListeners.emit(this.stateValue);
  }

  /** The machine's end: the first join rejects, a stay ends with the room's words. */
  private finish(error: Error): void {
    if (this.joining) {
      if (this.timer !== undefined) this.scheduler.clearTimer(this.timer);
      this.joining.reject(error);
      this.joining = undefined;
      return;
    }
    if (error instanceof LobbyJoinError) this.end(error.code, error.message);
    else this.end('host-gone');
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
    this.stop();
    this.link.end(this.ended.message);
    await this.link.current.close();
  }

  /** Stops the machine (no more tries) and lets go of a try's connection and the timer. */
  private stop(): void {
    this.feed({ kind: 'over' });
    this.dropTry();
    if (this.timer !== undefined) this.scheduler.clearTimer(this.timer);
    this.timer = undefined;
  }

  private end(code: LobbyEndCode, message = LOBBY_END_MESSAGES[code]): void {
    if (this.ended) return;
    this.ended = { code, message };
    this.stop();
    void this.link.current.close();
    this.link.end(message);
    this.endListeners.emit(this.ended);
  }
}
