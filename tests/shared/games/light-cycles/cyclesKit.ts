import { GAME_TICK_DT } from '../../../../shared/game/gameProtocol';
import { createRound } from '../../../../shared/games/light-cycles/createRound';
import { RULES } from '../../../../shared/games/light-cycles/rules';
import { step } from '../../../../shared/games/light-cycles/step';
import type { CycleInput, CyclesEvent, CyclesState, Heading } from '../../../../shared/games/light-cycles/types';

/** A round of `players` riders ('0', '1', …) on a `width × height` grid, without the 3-2-1 unless asked. */
export function round(players: number, options: { width?: number; height?: number; countdown?: number } = {}) {
  return createRound(
    {
      players: Array.from({ length: players }, (_, i) => ({ id: String(i), name: `P${i}`, colour: '#33ccff' })),
      seed: 11,
      roundDuration: 60,
    },
    { width: options.width ?? 12, height: options.height ?? 8, countdown: options.countdown ?? 0 },
  );
}

/** The round with riders moved to the given cells and headings; the trail holds just their heads. */
export function placed(
  state: CyclesState,
  spots: Record<string, { x: number; y: number; heading: Heading }>,
): CyclesState {
  const trail = new Array<number>(state.width * state.height).fill(0);
  const cycles = state.cycles.map((c) => {
    const spot = spots[c.id] ?? c;
    trail[spot.y * state.width + spot.x] = c.slot + 1;
    return { ...c, x: spot.x, y: spot.y, heading: spot.heading, corners: [{ x: spot.x, y: spot.y }] };
  });
  return { ...state, cycles, trail };
}

/** Runs `moves` whole moves (RULES.moveTicks ticks each); `turns[m]` are the turns asked on the first tick of move m. */
export function ride(state: CyclesState, moves: number, turns: Record<number, Record<string, Heading>> = {}) {
  const events: CyclesEvent[] = [];
  let current = state;
  for (let m = 0; m < moves; m++) {
    for (let t = 0; t < RULES.moveTicks; t++) {
      const inputs = new Map<string, CycleInput>();
      for (const [id, turn] of Object.entries(t === 0 ? (turns[m] ?? {}) : {})) inputs.set(id, { sequence: 1, turn });
      const outcome = step(current, inputs, GAME_TICK_DT);
      current = outcome.state;
      events.push(...outcome.events);
    }
  }
  return { state: current, events };
}

/** The rider with that id. */
export function cycle(state: CyclesState, id: string) {
  const found = state.cycles.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no rider ${id}`);
  return found;
}
