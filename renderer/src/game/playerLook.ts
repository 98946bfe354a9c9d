import { IT_MARKER_COLOUR, looksLikeItMarker } from '../../../shared/lobby/lobbyPalette';
import { safeColour } from './colour';

/** A player's name and colour, from the roster (or a stand-in before it arrives). */
export interface PlayerLook {
  readonly name: string;
  readonly colour: string;
  /** True on the stand-in of a player the roster has not named yet (a headline should not say "Player 0"). */
  readonly unnamed?: boolean;
}

/** The stand-in look of a player the roster has not named (yet). */
export function fallbackLook(id: string): PlayerLook {
  return { name: `Player ${id}`, colour: '#9aa1c7', unnamed: true };
}

/** What a player's state says about it, as a game hands it to {@link playerMarks}. */
export interface MarkedPlayer {
  /** The chaser ("it" in tag): marked by shape, motion and text, not only by colour. */
  readonly it: boolean;
  readonly self: boolean;
  /** Seconds until it may act again (its share of `cooldownFull` is drawn as an arc). */
  readonly cooldown: number;
  /** Seconds it cannot be caught (drawn as a shield whose arc runs down). */
  readonly immunity: number;
}

/** One thing drawn on or around a player, innermost first. Shares are 0–1 of a full circle. */
export type PlayerMark =
  | { readonly kind: 'body'; readonly colour: string }
  /** Thick ring in the marker colour that breathes (`pulse` 0–1) around the chaser. */
  | { readonly kind: 'itRing'; readonly colour: string; readonly pulse: number }
  /** Dashed ring turning around the chaser (`turn` in radians): motion, not colour. */
  | { readonly kind: 'itOrbit'; readonly colour: string; readonly turn: number }
  /** The "IT" badge on the chaser: a filled pill with the text. */
  | { readonly kind: 'itBadge'; readonly text: 'IT'; readonly colour: string }
  /** How far the local chaser can reach (dashed circle). */
  | { readonly kind: 'reach' }
  /** The local player's white ring. */
  | { readonly kind: 'selfRing' }
  /** The local player's cooldown, as the share still to wait. */
  | { readonly kind: 'cooldownArc'; readonly share: number }
  /** A shield bubble with its remaining `share` as an arc and whole `seconds` left written under it. */
  | { readonly kind: 'shield'; readonly share: number; readonly seconds: number };

/** Full lengths the arcs of {@link playerMarks} are measured against, seconds. */
export interface MarkScales {
  readonly cooldownFull: number;
  readonly immunityFull: number;
}

/** The body colour: the player's own, unless it could pass for the chaser's marker (then a neutral one). */
export function bodyColour(colour: string): string {
  const safe = safeColour(colour);
  return /^#[0-9a-f]{6}$/i.test(safe) && looksLikeItMarker(safe) ? '#9aa1c7' : safe;
}

/**
 * What to draw for one player at `time` (seconds), innermost first: its body; for the chaser a pulsing ring in the
 * reserved marker colour, a turning dashed orbit and an "IT" badge (shape, motion and text as well as colour); the
 * local player's ring, and its reach and cooldown arc when it chases; a shield with a running-down arc while it
 * cannot be caught. The renderer only turns this list into canvas calls, so tests read what is drawn here.
 */
export function playerMarks(p: MarkedPlayer, look: PlayerLook, time: number, scales: MarkScales): PlayerMark[] {
  const marks: PlayerMark[] = [];
  if (p.it && p.self) marks.push({ kind: 'reach' });
  marks.push({ kind: 'body', colour: bodyColour(look.colour) });
  if (p.it) {
    marks.push({ kind: 'itRing', colour: IT_MARKER_COLOUR, pulse: 0.5 + 0.5 * Math.sin(time * 6) });
    marks.push({ kind: 'itOrbit', colour: IT_MARKER_COLOUR, turn: (time * 1.6) % (Math.PI * 2) });
  }
  if (p.self) marks.push({ kind: 'selfRing' });
  if (p.self && p.it && p.cooldown > 0) {
    marks.push({ kind: 'cooldownArc', share: Math.min(1, p.cooldown / scales.cooldownFull) });
  }
  if (!p.it && p.immunity > 0) {
    marks.push({
      kind: 'shield',
      share: Math.min(1, p.immunity / scales.immunityFull),
      seconds: Math.ceil(p.immunity - 1e-9),
    });
  }
  if (p.it) marks.push({ kind: 'itBadge', text: 'IT', colour: IT_MARKER_COLOUR });
  return marks;
}
