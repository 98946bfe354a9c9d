import { RULES, TAG_REACH } from './rules';
import type { GameEvent, PlayerState, TargetPositionLookup, Vec2 } from './types';

function isPoint(value: Vec2 | undefined): value is Vec2 {
  return value !== undefined && Number.isFinite(value.x) && Number.isFinite(value.y);
}

/**
 * Resolves a tag attempt by the player at `taggerIndex`: the nearest other player not immune whose position (as
 * given by `targetPositionAt`, e.g. lag-compensated, else current) is within TAG_REACH of the tagger becomes "it"
 * with a tag cooldown, and the tagger gets RULES.tagBackImmunity (the new "it" cannot tag it straight back); a miss
 * puts the tagger on RULES.missCooldown. Ties go to the earlier-joined player.
 */
export function resolveTag(
  players: readonly PlayerState[],
  taggerIndex: number,
  targetPositionAt: TargetPositionLookup | undefined,
): { players: PlayerState[]; event: GameEvent } {
  const tagger = players[taggerIndex];
  if (tagger === undefined) throw new RangeError(`no player at index ${taggerIndex}`);
  let hitIndex = -1;
  let hitDistanceSquared = TAG_REACH * TAG_REACH;
  players.forEach((target, i) => {
    if (i === taggerIndex || target.immunity > 0) return;
    const looked = targetPositionAt?.(target.id, tagger.id);
    const at = isPoint(looked) ? looked : target;
    const d2 = (at.x - tagger.x) ** 2 + (at.y - tagger.y) ** 2;
    if (d2 <= hitDistanceSquared && (hitIndex < 0 || d2 < hitDistanceSquared)) {
      hitIndex = i;
      hitDistanceSquared = d2;
    }
  });
  const target = players[hitIndex];
  if (target === undefined) {
    const next = players.map((p, i) => (i === taggerIndex ? { ...p, cooldown: RULES.missCooldown } : p));
    return { players: next, event: { type: 'tagMissed', taggerId: tagger.id } };
  }
  const next = players.map((p, i) => {
    if (i === taggerIndex) return { ...p, it: false, cooldown: 0, immunity: RULES.tagBackImmunity, tags: p.tags + 1 };
    if (i === hitIndex) return { ...p, it: true, cooldown: RULES.tagCooldown };
    return p;
  });
  return { players: next, event: { type: 'tag', taggerId: tagger.id, targetId: target.id } };
}
