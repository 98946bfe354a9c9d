import { ahead, isReverse, onGrid, RULES } from './rules';
import type { Cycle, CyclesEvent, CyclesState, Heading } from './types';

type Crash = Extract<CyclesEvent, { type: 'crashed' }>;

/** A rider's queued turns with `turn` added: ignored when it is the way it already goes or straight back. */
export function queueTurn(cycle: Pick<Cycle, 'heading' | 'turns'>, turn: Heading): readonly Heading[] {
  const planned = cycle.turns.length > 0 ? (cycle.turns[cycle.turns.length - 1] as Heading) : cycle.heading;
  if (turn === planned || isReverse(planned, turn) || cycle.turns.length >= RULES.turnQueue) return cycle.turns;
  return [...cycle.turns, turn];
}

/** What one move does to the riders and the trail. */
export interface MoveResult {
  readonly cycles: readonly Cycle[];
  readonly trail: readonly number[];
  readonly crashes: readonly Crash[];
}

/**
 * Every riding cycle takes its next queued turn and moves one cell, all at once. A cycle crashes (and stays where it
 * was) into a wall, into any trail (heads included), or head-on: two cycles into one cell, or two swapping cells.
 * The survivors' new cells join the trail; a crashed cycle's trail stays on the grid.
 */
export function moveCycles(state: Pick<CyclesState, 'cycles' | 'trail' | 'width' | 'height' | 'tick'>): MoveResult {
  const { width, height, trail, tick } = state;
  const plans = state.cycles.map((c) => {
    const heading = c.turns[0] ?? c.heading;
    return { heading, next: ahead(c, heading) };
  });
  const wanted = new Map<number, number>();
  const heads = new Map<number, number>();
  state.cycles.forEach((c, i) => {
    if (!c.alive) return;
    heads.set(c.y * width + c.x, i);
    const { next } = plans[i]!;
    if (onGrid(next, width, height))
      wanted.set(next.y * width + next.x, (wanted.get(next.y * width + next.x) ?? 0) + 1);
  });
  const crashes: Crash[] = [];
  const after = trail.slice();
  const cycles = state.cycles.map((c, i): Cycle => {
    if (!c.alive) return c;
    const { heading, next } = plans[i]!;
    const index = next.y * width + next.x;
    let cause: Crash['cause'] | undefined;
    if (!onGrid(next, width, height)) cause = 'wall';
    else if ((wanted.get(index) ?? 0) > 1) cause = 'head-on';
    else if (trail[index] !== 0) {
      // Into the head of a cycle riding into ours: they met head-on.
      const other = heads.get(index);
      const back = other === undefined ? undefined : plans[other]!.next;
      cause = back !== undefined && back.x === c.x && back.y === c.y ? 'head-on' : 'trail';
    }
    if (cause !== undefined) {
      crashes.push({ type: 'crashed', id: c.id, cause });
      return { ...c, heading, turns: [], alive: false, crashedAt: tick };
    }
    after[index] = c.slot + 1;
    const corners = heading === c.heading ? c.corners : [...c.corners, { x: c.x, y: c.y }];
    return { ...c, x: next.x, y: next.y, heading, turns: c.turns.slice(1), cells: c.cells + 1, corners };
  });
  return { cycles, trail: after, crashes };
}
