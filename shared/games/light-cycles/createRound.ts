import { SeededRandom } from '../../random/prng';
import type { GameSetup } from '../gameDefinition';
import { RULES } from './rules';
import type { Cell, Cycle, CyclesState, Heading } from './types';

/** Where a cycle starts and which way it rides. */
export interface Spawn extends Cell {
  readonly heading: Heading;
}

/**
 * `count` starts spread evenly on an ellipse round the middle, each riding clockwise along it (so nobody starts
 * facing anybody), the first at the bottom; distinct cells for up to 8 riders on the standard grid.
 */
export function spawnPoints(count: number, width: number, height: number): Spawn[] {
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  return Array.from({ length: count }, (_, i) => {
    const angle = Math.PI / 2 + (2 * Math.PI * i) / count;
    const tx = -Math.sin(angle) * width;
    const ty = Math.cos(angle) * height;
    const heading: Heading = Math.abs(tx) >= Math.abs(ty) ? (tx > 0 ? 1 : 3) : ty > 0 ? 2 : 0;
    return {
      x: Math.round(cx + Math.cos(angle) * width * 0.36),
      y: Math.round(cy + Math.sin(angle) * height * 0.34),
      heading,
    };
  });
}

/** Options of {@link createRound} beyond the game setup. */
export interface RoundOptions {
  readonly width?: number;
  readonly height?: number;
  /** Seconds of the 3-2-1. Default RULES.countdown. */
  readonly countdown?: number;
}

/** A fresh round: riders on their starts (which rider gets which start is the seed's), trails empty but for them. */
export function createRound(setup: GameSetup, options: RoundOptions = {}): CyclesState {
  const width = options.width ?? RULES.width;
  const height = options.height ?? RULES.height;
  const countdown = options.countdown ?? RULES.countdown;
  if (!(Number.isFinite(countdown) && countdown >= 0)) throw new RangeError(`countdown must be >= 0, got ${countdown}`);
  if (setup.players.length > RULES.maxPlayers) {
    throw new RangeError(`light cycles takes at most ${RULES.maxPlayers} players, got ${setup.players.length}`);
  }
  const starts = spawnPoints(setup.players.length, width, height);
  const order = starts.map((_, i) => i);
  const rng = new SeededRandom(setup.seed);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const trail = new Array<number>(width * height).fill(0);
  const cycles = setup.players.map((player, slot): Cycle => {
    const start = starts[order[slot] as number] as Spawn;
    trail[start.y * width + start.x] = slot + 1;
    return {
      id: player.id,
      name: player.name,
      colour: player.colour,
      slot,
      x: start.x,
      y: start.y,
      heading: start.heading,
      turns: [],
      alive: true,
      survived: 0,
      crashedAt: null,
      cells: 0,
      corners: [{ x: start.x, y: start.y }],
    };
  });
  return {
    width,
    height,
    phase: cycles.length >= RULES.minPlayers ? 'playing' : 'waiting',
    tick: 0,
    elapsed: 0,
    countdown,
    timeRemaining: setup.roundDuration,
    sinceMove: 0,
    cycles,
    trail,
    winnerIds: [],
  };
}
