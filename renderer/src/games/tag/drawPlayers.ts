import type { ViewPlayer } from '../../../../shared/games/tag/clientView';
import { RULES, TAG_REACH } from '../../../../shared/games/tag/rules';
import { toCanvasX, toCanvasY, type ArenaTransform } from '../../game/arenaTransform';
import { inkOn, safeColour } from '../../game/colour';
import type { PlayerLook } from '../../game/playerLook';

/** "It" highlight colour. */
export const IT_COLOUR = '#ff4d6d';

/** Longest cooldown the ring shows as full (seconds). */
const COOLDOWN_FULL = RULES.tagCooldown;

/**
 * Draws every player: a filled circle in the player's colour, a pulsing red halo and "IT" on whoever is it, a white
 * ring and the tag reach on the local player, its cooldown as a shrinking arc, and names above. `time` (seconds)
 * drives the pulse. Allocation-free apart from the canvas calls.
 */
export function drawPlayers(
  ctx: CanvasRenderingContext2D,
  players: readonly ViewPlayer[],
  look: (id: string) => PlayerLook,
  t: ArenaTransform,
  ratio: number,
  time: number,
): void {
  const r = RULES.playerRadius * t.scale;
  const pulse = 0.5 + 0.5 * Math.sin(time * 6);
  // Halos first, so no halo covers a neighbour's body.
  for (const p of players) {
    const x = toCanvasX(t, p.x);
    const y = toCanvasY(t, p.y);
    if (p.self && p.it) {
      ctx.beginPath();
      ctx.arc(x, y, TAG_REACH * t.scale, 0, Math.PI * 2);
      ctx.setLineDash([6 * ratio, 6 * ratio]);
      ctx.lineWidth = 1.5 * ratio;
      ctx.strokeStyle = 'rgba(255, 77, 109, 0.55)';
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (p.it) {
      ctx.beginPath();
      ctx.arc(x, y, r + (8 + 4 * pulse) * ratio, 0, Math.PI * 2);
      ctx.fillStyle = `rgba(255, 77, 109, ${0.18 + 0.17 * pulse})`;
      ctx.fill();
    }
  }
  for (const p of players) {
    const x = toCanvasX(t, p.x);
    const y = toCanvasY(t, p.y);
    const { name, colour } = look(p.id);
    const fill = safeColour(colour);
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.lineWidth = (p.it ? 3 : 2) * ratio;
    ctx.strokeStyle = p.it ? IT_COLOUR : 'rgba(11, 13, 23, 0.85)';
    ctx.stroke();
    if (p.self) {
      ctx.beginPath();
      ctx.arc(x, y, r + 4 * ratio, 0, Math.PI * 2);
      ctx.lineWidth = 2 * ratio;
      ctx.strokeStyle = '#ffffff';
      ctx.stroke();
      if (p.cooldown > 0) {
        const share = Math.min(1, p.cooldown / COOLDOWN_FULL);
        ctx.beginPath();
        ctx.arc(x, y, r + 8 * ratio, -Math.PI / 2, -Math.PI / 2 + share * Math.PI * 2);
        ctx.lineWidth = 3 * ratio;
        ctx.strokeStyle = 'rgba(34, 211, 238, 0.9)';
        ctx.stroke();
      }
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    if (p.it) {
      ctx.font = `800 ${Math.round(Math.max(9 * ratio, r * 0.8))}px system-ui, sans-serif`;
      ctx.fillStyle = inkOn(fill);
      ctx.fillText('IT', x, y + ratio);
    }
    const fontPx = Math.round(13 * ratio);
    ctx.font = `600 ${fontPx}px system-ui, sans-serif`;
    const label = p.self ? `${name} (you)` : name;
    const gap = (p.self ? 16 : 12) * ratio;
    // Keep labels on the canvas: below the circle near the top edge, pushed in at the sides.
    const above = y - r - gap;
    const labelY = above < fontPx ? y + r + gap : above;
    const half = ctx.measureText(label).width / 2 + 2 * ratio;
    const labelX = Math.min(ctx.canvas.width - half, Math.max(half, x));
    ctx.lineWidth = 3 * ratio;
    ctx.strokeStyle = 'rgba(11, 13, 23, 0.9)';
    ctx.strokeText(label, labelX, labelY);
    ctx.fillStyle = '#eef0ff';
    ctx.fillText(label, labelX, labelY);
  }
}
