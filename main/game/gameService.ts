import { GAME_TICK_RATE, type GameResults, type GameRoster } from '../../shared/game/gameProtocol';
import type { GameDefinition, GameInput } from '../../shared/games/gameDefinition';
import { GAMES } from '../../shared/games/registry';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { RESULTS_HOLD_SECONDS, type GameResultsPayload, type GameRosterPayload } from '../../shared/ipc/schemas/game';
import { GameClient } from './gameClient';
import { GameHost } from './host/gameHost';
import type { GameLink } from './gameLink';
import { LocalGameClient } from './localGameClient';
import { netStatsOf } from './gameNetStats';
import { SnapshotArrivalRate } from './snapshotArrivalRate';
import type { GameRoom, GameSeat, GameService, GameServiceOptions, GameSession } from './gameServiceTypes';
import { silentLogger } from '../base/logger';
import { systemScheduler, type TimerHandle } from '../base/scheduler';
import { UnknownGameError } from '../../shared/games/createRegistry';

export type {
  GameEmit,
  GameEvents,
  GameHandlers,
  GameRoom,
  GameSeat,
  GameService,
  GameServiceOptions,
  GameSession,
} from './gameServiceTypes';

const HOST_ENDED = 'The host ended the round.';

const rosterPayload = (r: GameRoster): GameRosterPayload => ({
  game: r.game,
  players: r.players.map((p) => ({ ...p })),
});
// A host too old to say how long it holds the results holds them the default time.
const resultsPayload = (r: GameResults): GameResultsPayload => ({
  ...r,
  winners: [...r.winners],
  scores: r.scores.map((s) => ({ ...s })),
  holdSeconds: r.holdSeconds ?? RESULTS_HOLD_SECONDS,
});
/** Ticks per snapshot of a fixed rate (a divisor of the tick rate), undefined when the host is to choose. */
function snapshotEveryOf(perSecond: number | undefined): number | undefined {
  if (perSecond === undefined) return undefined;
  const every = GAME_TICK_RATE / perSecond;
  if (!Number.isInteger(every) || every < 1) {
    throw new RangeError(`snapshotsPerSecond must divide ${GAME_TICK_RATE} (60, 30, 20, …), got ${perSecond}`);
  }
  return every;
}

/** The running game's own check of renderer inputs (the contract only checks their sequence). */
function checkedInputs(game: GameDefinition, inputs: readonly GameInput[]): GameInput[] {
  return inputs.map((input, i) => {
    const parsed = game.input.schema.safeParse(input);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
    throw new IpcError(
      IpcErrorCode.INVALID_ARGUMENT,
      `Input ${i + 1} is not a ${game.name} input${where}: ${issue?.message ?? 'invalid'}`,
    );
  });
}

/**
 * The game bridge of the backend: runs or joins the room's game (the registry's definition for the lobby state's
 * gameId) and forwards it to the renderer.
 */
export function createGameService(options: GameServiceOptions): GameService {
  const { emit } = options;
  const games = options.games ?? GAMES;
  const logger = options.logger ?? silentLogger;
  const holdMs = (options.resultsHoldSeconds ?? RESULTS_HOLD_SECONDS) * 1000;
  const scheduler = options.scheduler ?? systemScheduler;
  const snapshotEvery = snapshotEveryOf(options.snapshotsPerSecond);
  const onError = (error: unknown) => logger.error('game callback failed', error);
  let room: GameRoom | null = null;
  let seat: GameSeat | null = null;
  let host: GameHost | null = null;
  let link: GameLink | null = null;
  // The game `link` plays, for checking the renderer's inputs.
  let linkGame: GameDefinition | null = null;
  let linkOffs: (() => void)[] = [];
  const placeOffs: (() => void)[] = [];
  let roster: GameRosterPayload | null = null;
  let results: GameResultsPayload | null = null;
  let ended = false;
  let hold: TimerHandle;
  // What a guest receives; the host reports the rate it chose instead.
  const arrivals = new SnapshotArrivalRate();

  const emitEnded = (reason: string): void => {
    if (roster === null || results !== null || ended) return;
    ended = true;
    emit('game.ended', { game: roster.game, reason });
  };
  const watch = (next: GameLink, game: GameDefinition, gameId: () => number | undefined): void => {
    link = next;
    linkGame = game;
    linkOffs = [
      next.onRoster((r) => {
        if (r.game !== roster?.game) [results, ended] = [null, false];
        roster = rosterPayload(r);
        emit('game.roster', roster);
      }),
      next.onSnapshot((snapshot) => {
        arrivals.observe(scheduler.now());
        const game = gameId();
        if (game !== undefined) emit('game.snapshot', { game, snapshot });
      }),
      next.onResults((r) => {
        results = resultsPayload(r);
        emit('game.results', results);
      }),
      next.onClosed((reason) => emitEnded(reason)),
    ];
  };
  const closeLink = (): void => {
    for (const off of linkOffs.splice(0)) off();
    link?.close();
    link = null;
    linkGame = null;
    arrivals.reset();
  };
  // Back in the lobby: a running game stops (telling the renderer), and the last game's data is dropped.
  const endRound = (reason: string): void => {
    scheduler.clearTimer(hold);
    host?.stop(reason);
    emitEnded(reason);
    host = null;
    if (room !== null) closeLink();
    [roster, results, ended] = [null, null, false];
  };
  const stop = (reason = 'You left the room.'): void => {
    endRound(reason);
    closeLink();
    for (const off of placeOffs.splice(0)) off();
    room = seat = null;
  };
  const adoptRoom = (next: GameRoom, autoStart: boolean): void => {
    if (room === next) return;
    stop();
    room = next;
    placeOffs.push(
      next.onState((state) => {
        if (state.phase !== 'playing') endRound(HOST_ENDED);
        else if (autoStart && host === null) startGuarded(next);
      }),
    );
  };
  const startGuarded = (r: GameRoom): void => {
    try {
      startAsHost(r);
    } catch (error) {
      logger.error('could not start the game', error);
      r.endGame();
    }
  };

  function startAsHost(r: GameRoom, opts: { onRoundEnd?: (results: GameResults) => void } = {}): GameHost {
    adoptRoom(r, false);
    endRound(HOST_ENDED);
    const game = new GameHost({
      game: games.get(r.state.gameId),
      transport: r.gameTransport ?? r.transport,
      players: r.state.players.map(({ id, name, colour }) => ({ id, name, colour })),
      ...(options.roundDuration !== undefined ? { roundDuration: options.roundDuration } : {}),
      resultsHoldSeconds: holdMs / 1000,
      ...(snapshotEvery !== undefined ? { snapshotEvery } : {}),
      onCallbackError: onError,
      scheduler,
      onRoundEnd: (final) => {
        hold = scheduler.setTimer(() => {
          if (host === game) r.endGame();
        }, holdMs);
        opts.onRoundEnd?.(final);
      },
    });
    host = game;
    watch(new LocalGameClient(game, onError), game.game, () => game.gameId);
    game.start();
    return game;
  }

  function attachGuest(next: GameSeat): void {
    if (seat === next) return;
    stop();
    seat = next;
    const game = games.find(next.state.gameId);
    if (game === undefined) {
      // The lobby refuses rooms of unknown games when joining, so this is a bug, not a player's mistake.
      logger.error(`cannot follow the room's game: ${new UnknownGameError(next.state.gameId, games.ids).message}`);
    } else {
      const client = new GameClient({
        game,
        transport: next.transport,
        playerId: String(next.you),
        onCallbackError: onError,
      });
      watch(client, game, () => client.gameId);
    }
    placeOffs.push(
      next.onState((state) => {
        if (state.phase !== 'playing') endRound(HOST_ENDED);
      }),
      next.onEnd((end) => emitEnded(end.message)),
    );
  }

  return {
    handlers: {
      'game.get': () => ({
        you: link?.playerId ?? (room !== null ? '0' : seat !== null ? String(seat.you) : null),
        roster,
        results,
      }),
      'game.input': ({ inputs, interpolationDelay }) => {
        if (link === null || linkGame === null || roster === null || results !== null || ended) {
          return { accepted: false };
        }
        link.sendInputs(checkedInputs(linkGame, inputs), interpolationDelay);
        return { accepted: true };
      },
      'game.finishRound': () => {
        if (seat !== null) throw new IpcError(IpcErrorCode.PERMISSION_DENIED, 'Only the host can end the round.');
        if (room === null) throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'You are not in a room.');
        if (host === null) throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'No round is being played.');
        if (!host.endRound()) throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'The round is already over.');
      },
      'net.stats': () => {
        const rate =
          host !== null ? host.snapshotsPerSecond : seat !== null ? arrivals.perSecond(scheduler.now()) : null;
        return netStatsOf(room ?? seat, options.conditioner?.() ?? null, rate);
      },
    },
    startAsHost,
    attachGuest,
    bindLobby(lobby) {
      const follow = (session: GameSession | null): void => {
        if (session === null) stop();
        else if (session.role === 'guest') attachGuest(session.guest);
        else {
          adoptRoom(session.host, true);
          if (session.host.state.phase === 'playing' && host === null) startGuarded(session.host);
        }
      };
      follow(lobby.session());
      const off = lobby.onSession(follow);
      return () => {
        off();
        stop();
      };
    },
    stop,
  };
}
