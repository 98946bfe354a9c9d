/** Data shapes of the arena tag game. Everything is plain, immutable, JSON-friendly data. */
import type { GamePhase, PlayerId, PositionLookup } from '../gameDefinition';

export type { GamePhase, PlayerId } from '../gameDefinition';

/** A point or vector in arena units. */
export interface Vec2 {
  readonly x: number;
  readonly y: number;
}

/** An axis-aligned rectangle: top-left corner plus size, in arena units. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The playing field: [0, width] × [0, height] with solid rectangular obstacles. */
export interface Arena {
  readonly width: number;
  readonly height: number;
  readonly obstacles: readonly Rect[];
}

/** One tick of one player's controls. `moveX`/`moveY` in −1..1 (longer vectors are normalised); `tag` = try to tag. */
export interface PlayerInput {
  readonly sequence: number;
  readonly moveX: number;
  readonly moveY: number;
  readonly tag: boolean;
}

/** The part of a player that movement reads and writes; the client predicts exactly this. */
export interface PlayerBody {
  readonly x: number;
  readonly y: number;
  readonly vx: number;
  readonly vy: number;
  /** Whether this player is "it" (it moves slightly faster). */
  readonly it: boolean;
}

/** A player in the authoritative game state. */
export interface PlayerState extends PlayerBody {
  readonly id: PlayerId;
  readonly name: string;
  /** CSS colour, e.g. `#e6194b`. */
  readonly colour: string;
  /** Seconds spent not being "it" while the round was running. */
  readonly score: number;
  /** Seconds until this player may try to tag again. */
  readonly cooldown: number;
  /** Seconds this player cannot be tagged (it just passed "it" on: no tag-backs). */
  readonly immunity: number;
  /** Successful tags made this round (shown on the scoreboard; does not affect the score). */
  readonly tags: number;
}

/** The whole authoritative game. Replaced, never mutated, by the rule functions. */
export interface GameState {
  readonly arena: Arena;
  /** Length of a round in seconds. */
  readonly roundDuration: number;
  /** Players in join order (the order every rule iterates in, for determinism). */
  readonly players: readonly PlayerState[];
  readonly phase: GamePhase;
  /** Seconds left in the current round (the full duration while waiting). */
  readonly timeRemaining: number;
  /** Length of the countdown before each round, seconds (0: none). */
  readonly roundCountdown: number;
  /** Seconds of the countdown still to run: while above 0 the round is 'playing' but frozen (no moves, tags, score). */
  readonly countdown: number;
  /** Simulated seconds since createGame: the server clock snapshots carry. */
  readonly elapsed: number;
  /** Number of step() calls since createGame. */
  readonly tick: number;
  /** Highest scorers of the last finished round (several on a tie); empty until a round ends. */
  readonly winnerIds: readonly PlayerId[];
  /** State of the seeded PRNG (see shared/random/prng). */
  readonly rngState: number;
}

/** Something that happened during a step, for sounds, toasts and logs. */
export type GameEvent =
  | { readonly type: 'tag'; readonly taggerId: PlayerId; readonly targetId: PlayerId }
  | { readonly type: 'tagMissed'; readonly taggerId: PlayerId }
  | { readonly type: 'roundEnded'; readonly winnerIds: readonly PlayerId[] };

/** Where the host believes `targetId` was as `shooterId` saw it (lag compensation); undefined = use current. */
export type TargetPositionLookup = PositionLookup;
