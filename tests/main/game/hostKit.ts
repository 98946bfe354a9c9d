import { GameHost, type GameHostOptions, type GamePlayer } from '../../../main/game/host/gameHost';
import { GAME_TICK_DT, GameMessage, type GameResults } from '../../../shared/game/gameProtocol';
import type { GameSnapshot } from '../../../shared/games/tag/wire/snapshot';
import { createTagGame } from '../../../shared/games/tag/tagGame';
import type { InputTuple } from '../../../shared/games/tag/wire/tagInput';
import type { Arena, GameEvent, GameState, PlayerInput, PlayerState } from '../../../shared/games/tag/types';
import { FakeHostTransport, manualTicker } from './fakeTransports';

/** An arena without obstacles, so positions in tests are easy to reason about. */
export const OPEN_ARENA: Arena = { width: 1600, height: 900, obstacles: [] };

/** Tag on the open arena, as the host tests run it: without the round countdown, so play starts at the first tick. */
export const OPEN_TAG = createTagGame({ arena: OPEN_ARENA, countdown: 0 });

/** Options of a tag game host. */
export type TagHostOptions = GameHostOptions<GameState, PlayerInput, GameSnapshot, GameEvent, InputTuple>;

/** Host Hana (0) and guests Gus (1) and Ida (2). */
export const THREE_PLAYERS: GamePlayer[] = [
  { id: 0, name: 'Hana', colour: '#ff5577' },
  { id: 1, name: 'Gus', colour: '#22cc88' },
  { id: 2, name: 'Ida', colour: '#3366ff' },
];

/** A `game.input` payload with the given sequences, all with the same controls. */
export function inputPayload(
  g: number,
  sequences: readonly number[],
  controls: { moveX?: number; moveY?: number; tag?: boolean; d?: number } = {},
) {
  return {
    g,
    d: controls.d ?? 0.1,
    i: sequences.map((s) => [s, controls.moveX ?? 0, controls.moveY ?? 0, controls.tag ? 1 : 0]),
  };
}

/** Overwrites fields of players by id (test setup through GameHostOptions.prepare). */
export function placing(changes: Record<string, Partial<PlayerState>>): (state: GameState) => GameState {
  return (state) => ({ ...state, players: state.players.map((p) => ({ ...p, ...changes[p.id] })) });
}

/** A started game host on a fake transport and a hand-moved clock; `ticks(n)` runs exactly n ticks. */
export function startHost(options: Partial<TagHostOptions> = {}) {
  const transport = new FakeHostTransport();
  const ticker = manualTicker();
  const ended: GameResults[] = [];
  const host = new GameHost({
    game: OPEN_TAG,
    transport,
    players: THREE_PLAYERS,
    onRoundEnd: (results) => ended.push(results),
    gameId: 7,
    seed: 3,
    scheduler: ticker.scheduler,
    ...options,
  });
  host.start();
  return {
    host,
    transport,
    ticker,
    ended,
    ticks(n = 1): void {
      for (let i = 0; i < n; i += 1) ticker.advance(GAME_TICK_DT);
    },
    /** Decoded snapshots sent so far. */
    snapshots() {
      return transport.ofType(GameMessage.SNAPSHOT).map((m) => m.payload as unknown as SnapshotWire);
    },
    player(id: string): PlayerState {
      const found = host.state.players.find((p) => p.id === id);
      if (!found) throw new Error(`no player ${id}`);
      return found;
    },
  };
}

/** A snapshot as received: GameSnapshot fields plus the game id. */
export interface SnapshotWire {
  g: number;
  k: number;
  t: number;
  ph: string;
  r: number;
  c?: number;
  p: [string, number, number, number, number, number, number, number, number][];
}
