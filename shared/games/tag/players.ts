import { SeededRandom } from '../../random/prng';
import { circleOverlapsRect } from './collision';
import { PLAYER_COLOURS, RULES } from './rules';
import { startRound, toWaiting, withIt } from './round';
import type { Arena, GameState, PlayerId, PlayerState, Vec2 } from './types';

/** Who joins: a host-assigned id (1–8 characters), a display name and optionally a colour (`#rgb` or `#rrggbb`). */
export interface NewPlayer {
  readonly id: PlayerId;
  readonly name: string;
  readonly colour?: string;
}

const SPAWN_ATTEMPTS = 64;
const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}){1,2}$/;

/** Trims, strips control characters, caps the length; falls back to `fallback` when nothing is left. */
export function sanitizeName(name: unknown, fallback: string): string {
  const cleaned = typeof name === 'string' ? name.replace(/\p{Cc}/gu, '').trim() : '';
  return [...cleaned].slice(0, RULES.maxNameLength).join('') || fallback;
}

function pickColour(requested: string | undefined, players: readonly PlayerState[]): string {
  if (requested !== undefined && HEX_COLOUR.test(requested)) return requested;
  const used = new Set(players.map((p) => p.colour));
  return (
    PLAYER_COLOURS.find((c) => !used.has(c)) ?? PLAYER_COLOURS[players.length % PLAYER_COLOURS.length] ?? '#ffffff'
  );
}

/** A random free spot: not inside an obstacle, as far as possible from other players (best of a bounded search). */
function spawnPoint(arena: Arena, players: readonly PlayerState[], rng: SeededRandom): Vec2 {
  const r = RULES.playerRadius;
  let best: Vec2 = { x: arena.width / 2, y: r };
  let bestClearance = -Infinity;
  for (let i = 0; i < SPAWN_ATTEMPTS; i += 1) {
    const x = rng.range(r, arena.width - r);
    const y = rng.range(r, arena.height - r);
    if (arena.obstacles.some((o) => circleOverlapsRect(x, y, r * 1.5, o))) continue;
    let clearance = Infinity;
    for (const p of players) clearance = Math.min(clearance, (p.x - x) ** 2 + (p.y - y) ** 2);
    if (clearance > bestClearance) {
      best = { x, y };
      bestClearance = clearance;
    }
    if (clearance >= (8 * r) ** 2) break;
  }
  return best;
}

/** Adds a player at a random free spot without starting a round; throws on a bad/duplicate id or a full game. */
export function insertPlayer(state: GameState, player: NewPlayer): GameState {
  const id = player.id;
  if (typeof id !== 'string' || id.length === 0 || id.length > RULES.maxIdLength) {
    throw new RangeError(`player id must be a string of 1-${RULES.maxIdLength} characters, got ${JSON.stringify(id)}`);
  }
  if (state.players.some((p) => p.id === id)) throw new Error(`player ${id} is already in the game`);
  if (state.players.length >= RULES.maxPlayers) throw new Error(`game is full (${RULES.maxPlayers} players)`);
  const rng = new SeededRandom(state.rngState);
  const spot = spawnPoint(state.arena, state.players, rng);
  const added: PlayerState = {
    id,
    name: sanitizeName(player.name, `Player ${state.players.length + 1}`),
    colour: pickColour(player.colour, state.players),
    x: spot.x,
    y: spot.y,
    vx: 0,
    vy: 0,
    it: false,
    score: 0,
    cooldown: 0,
    immunity: 0,
    tags: 0,
  };
  return { ...state, players: [...state.players, added], rngState: rng.state };
}

/**
 * Adds a player (see {@link insertPlayer}). Joining a waiting game that now has enough players starts a round;
 * joining a running round starts at score 0.
 */
export function addPlayer(state: GameState, player: NewPlayer): GameState {
  const next = insertPlayer(state, player);
  return next.phase === 'waiting' && next.players.length >= RULES.minPlayers ? startRound(next) : next;
}

/**
 * Removes a player (unknown ids are ignored: a disconnect may race a leave). If "it" leaves a running round, a
 * random remaining player becomes "it"; if too few players remain, the game goes back to waiting.
 */
export function removePlayer(state: GameState, id: PlayerId): GameState {
  const leaving = state.players.find((p) => p.id === id);
  if (leaving === undefined) return state;
  const players = state.players.filter((p) => p.id !== id);
  const next: GameState = { ...state, players };
  if (state.phase !== 'playing') return next;
  if (players.length < RULES.minPlayers) return toWaiting(next);
  if (!leaving.it) return next;
  const rng = new SeededRandom(state.rngState);
  return { ...next, players: withIt(players, rng.int(players.length)), rngState: rng.state };
}
