import { describe, expect, it } from 'vitest';
import { IT_MARKER_COLOUR, looksLikeItMarker } from '../../../shared/lobby/lobbyPalette';
import { bodyColour, playerMarks, type MarkedPlayer } from '../../../renderer/src/game/playerLook';

const scales = { cooldownFull: 1.5, immunityFull: 3 };
const look = { name: 'Ada', colour: '#3ddc97' };
const runner: MarkedPlayer = { it: false, self: false, cooldown: 0, immunity: 0 };
const kinds = (p: MarkedPlayer, time = 0) => playerMarks(p, look, time, scales).map((m) => m.kind);

describe('playerMarks: what is drawn for a player', () => {
  it('draws a plain runner as its body in its own colour, nothing else', () => {
    expect(playerMarks(runner, look, 0, scales)).toEqual([{ kind: 'body', colour: '#3ddc97' }]);
  });

  it('marks "it" by shape, motion and text, not colour alone: ring, turning orbit, IT badge', () => {
    const marks = playerMarks({ ...runner, it: true }, look, 0, scales);
    expect(marks.map((m) => m.kind)).toEqual(['body', 'itRing', 'itOrbit', 'itBadge']);
    expect(marks.find((m) => m.kind === 'itBadge')).toEqual({ kind: 'itBadge', text: 'IT', colour: IT_MARKER_COLOUR });
    // The body keeps the player's colour: the marker is added, never a recolouring.
    expect(marks[0]).toEqual({ kind: 'body', colour: '#3ddc97' });
    // It moves: the ring breathes and the orbit turns with time.
    const at = (time: number) => playerMarks({ ...runner, it: true }, look, time, scales);
    const ring = (time: number) => at(time).find((m) => m.kind === 'itRing');
    const orbit = (time: number) => at(time).find((m) => m.kind === 'itOrbit');
    expect(ring(0)).not.toEqual(ring(0.25));
    expect(orbit(0)).not.toEqual(orbit(0.25));
  });

  it('shows the local chaser its reach, its ring and the cooldown still to wait', () => {
    const marks = playerMarks({ it: true, self: true, cooldown: 0.75, immunity: 0 }, look, 0, scales);
    expect(marks.map((m) => m.kind)).toEqual([
      'reach',
      'body',
      'itRing',
      'itOrbit',
      'selfRing',
      'cooldownArc',
      'itBadge',
    ]);
    expect(marks.find((m) => m.kind === 'cooldownArc')).toEqual({ kind: 'cooldownArc', share: 0.5 });
    expect(kinds({ it: true, self: true, cooldown: 0, immunity: 0 })).not.toContain('cooldownArc');
    expect(kinds({ ...runner, self: true })).toEqual(['body', 'selfRing']);
  });

  it('shows tag-back immunity on the player as a shield whose arc and seconds run down', () => {
    const shield = (immunity: number) =>
      playerMarks({ ...runner, immunity }, look, 0, scales).find((m) => m.kind === 'shield');
    expect(shield(3)).toEqual({ kind: 'shield', share: 1, seconds: 3 });
    expect(shield(1.5)).toEqual({ kind: 'shield', share: 0.5, seconds: 2 });
    expect(shield(0.2)).toEqual({ kind: 'shield', share: expect.closeTo(0.0667, 3), seconds: 1 });
    expect(shield(0)).toBeUndefined();
    expect(shield(9)?.share).toBe(1);
  });

  it("never paints a body in the marker's hue, whatever colour a tool sent", () => {
    expect(looksLikeItMarker(bodyColour('#ff4d6d'))).toBe(false);
    expect(looksLikeItMarker(bodyColour('#e6194b'))).toBe(false);
    expect(bodyColour('#a3e048')).toBe('#a3e048');
    expect(bodyColour('javascript:1')).toBe('#9aa1c7');
  });
});
