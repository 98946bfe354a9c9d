import { clipToUnits, hasVisibleText, normalizeText } from '../../../shared/text/normalizeText';
import { LOBBY_NAME_UNITS } from '../../../shared/lobby/lobbyLimits';
import { nameSkeleton } from './nameSkeleton';

/** A bracketed "host" in a skeleton: "(Host)", "[HOST]", "{host}", "<Host>", look-alike letters included. */
const HOST_MARKER = /[([{<]\s*host\s*[)\]}>]/;

/** Brackets of any script (and the ASCII angle brackets, which Unicode files as maths). */
const BRACKETS = /[\p{Ps}\p{Pe}<>]/gu;

/** The name a room gives a player, or why it gives none. */
export type RoomNameDecision =
  | { readonly ok: true; readonly name: string }
  | { readonly ok: false; readonly why: 'invisible' | 'host-marker' | 'taken' };

/** Whether a name claims the host's marker, however it is spelled. */
export function claimsHostMarker(name: string): boolean {
  return HOST_MARKER.test(nameSkeleton(name));
}

/**
 * The name a player gets in a room: normalised and clipped to the lobby's 24 units; a typed host marker loses
 * its brackets ("Alice (Host)" → "Alice Host"); a name that looks like one already `taken` (the host's included,
 * compared by confusable skeleton) gets the first free number ("Hana" → "Hana 2"). Pure.
 */
export function roomNameFor(requested: string, taken: readonly string[]): RoomNameDecision {
  let name = clipToUnits(normalizeText(requested), LOBBY_NAME_UNITS).trim();
  if (!hasVisibleText(name)) return { ok: false, why: 'invisible' };
  if (claimsHostMarker(name)) {
    name = normalizeText(name.replace(BRACKETS, ' '));
    if (!hasVisibleText(name)) return { ok: false, why: 'invisible' };
    if (claimsHostMarker(name)) return { ok: false, why: 'host-marker' };
  }
  const skeletons = new Set(taken.map(nameSkeleton));
  if (!skeletons.has(nameSkeleton(name))) return { ok: true, name };
  // n runs over taken.length + 1 values and at most taken.length of them can collide, so one is free.
  for (let n = 2; n <= taken.length + 2; n++) {
    const suffix = ` ${n}`;
    const candidate = `${clipToUnits(name, LOBBY_NAME_UNITS - suffix.length).trimEnd()}${suffix}`;
    if (!skeletons.has(nameSkeleton(candidate))) return { ok: true, name: candidate };
  }
  return { ok: false, why: 'taken' };
}
