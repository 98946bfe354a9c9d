import type { ViewPlayer } from '../../../../shared/games/tag/client/clientView';
import { RULES, TAG_REACH } from '../../../../shared/games/tag/rules';
import { toCanvasX, toCanvasY, type ArenaTransform } from '../../game/arenaTransform';
import { placeLabels, type LabelRequest } from '../../game/labelPlacement';
import { playerMarks, type MarkScales, type PlayerLook, type PlayerMark } from '../../game/playerLook';

/** Arc lengths: the cooldown ring is full at the tag cooldown, the shield at the tag-back immunity. */
const SCALES: MarkScales = { cooldownFull: RULES.tagCooldown, immunityFull: RULES.tagBackImmunity };

/** Name labels, CSS pixels: readable at any arena size (never below 12 px). */
export const LABEL_FONT_PX = 13;
const LABEL_PAD_X = 6;
const LABEL_HEIGHT = 20;
/** Space kept between a name label and the arena's wall. */
const LABEL_WALL_GAP = 6;

/** Where on the canvas, at what size, and what state: one player about to be drawn. */
interface Placed {
  readonly p: ViewPlayer;
  readonly x: number;
  readonly y: number;
  readonly look: PlayerLook;
  readonly marks: PlayerMark[];
}

/** The local player's label first, then "it", then join order: the important labels get the best spots. */
function labelRank(p: ViewPlayer): number {
  return p.self ? 0 : p.it ? 1 : 2;
}

function drawMark(
  ctx: CanvasRenderingContext2D,
  m: PlayerMark,
  x: number,
  y: number,
  r: number,
  k: number,
  t: ArenaTransform,
): void {
  const full = Math.PI * 2;
  switch (m.kind) {
    case 'reach':
      ctx.beginPath();
      ctx.arc(x, y, TAG_REACH * t.scale, 0, full);
      ctx.setLineDash([6 * k, 6 * k]);
      ctx.lineWidth = 1.5 * k;
      ctx.strokeStyle = 'rgba(255, 77, 109, 0.55)';
      ctx.stroke();
      ctx.setLineDash([]);
      return;
    case 'body':
      ctx.beginPath();
      ctx.arc(x, y, r, 0, full);
      ctx.fillStyle = m.colour;
      ctx.fill();
      ctx.lineWidth = 2 * k;
      ctx.strokeStyle = 'rgba(11, 13, 23, 0.85)';
      ctx.stroke();
      return;
    case 'itRing':
      // Its glow went under every body (drawUnderlay): here only the ring, so the body keeps its own colour.
      ctx.beginPath();
      ctx.arc(x, y, r + 1.5 * k, 0, full);
      ctx.lineWidth = 3.5 * k;
      ctx.strokeStyle = m.colour;
      ctx.stroke();
      return;
    case 'itOrbit':
      ctx.beginPath();
      ctx.arc(x, y, r + 7 * k, m.turn, m.turn + full);
      ctx.setLineDash([7 * k, 5 * k]);
      ctx.lineWidth = 2.5 * k;
      ctx.strokeStyle = m.colour;
      ctx.stroke();
      ctx.setLineDash([]);
      return;
    case 'selfRing':
      ctx.beginPath();
      ctx.arc(x, y, r + 3.5 * k, 0, full);
      ctx.lineWidth = 2 * k;
      ctx.strokeStyle = '#ffffff';
      ctx.stroke();
      return;
    case 'cooldownArc':
      ctx.beginPath();
      ctx.arc(x, y, r + 12 * k, -Math.PI / 2, -Math.PI / 2 + m.share * full);
      ctx.lineWidth = 3 * k;
      ctx.strokeStyle = 'rgba(255, 214, 102, 0.95)';
      ctx.stroke();
      return;
    case 'shield': {
      const sr = r + 6 * k;
      ctx.beginPath();
      ctx.arc(x, y, sr, 0, full);
      ctx.fillStyle = 'rgba(238, 240, 255, 0.16)';
      ctx.fill();
      ctx.lineWidth = 1.5 * k;
      ctx.strokeStyle = 'rgba(238, 240, 255, 0.45)';
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x, y, sr, -Math.PI / 2, -Math.PI / 2 + m.share * full);
      ctx.lineWidth = 3 * k;
      ctx.strokeStyle = '#eef0ff';
      ctx.stroke();
      // The seconds left in a small disc on the shield's rim (bottom right), away from the name label.
      const bx = x + sr * 0.72;
      const by = y + sr * 0.72;
      ctx.beginPath();
      ctx.arc(bx, by, 8 * k, 0, full);
      ctx.fillStyle = '#eef0ff';
      ctx.fill();
      ctx.font = `800 ${Math.round(11 * k)}px system-ui, sans-serif`;
      ctx.fillStyle = '#0b0d17';
      ctx.fillText(String(m.seconds), bx, by + 0.5 * k);
      return;
    }
    case 'itBadge':
      // Drawn as part of the name label (drawLabel), where it never covers the body or its rings.
      return;
  }
}

/**
 * What lies under the bodies: the reach circle and the chaser's pulsing glow. Drawn for every player before any
 * body, so no translucent disc ever tints a body (the chaser's included) or a neighbour's.
 */
function drawUnderlay(ctx: CanvasRenderingContext2D, m: PlayerMark, x: number, y: number, r: number, k: number): void {
  if (m.kind !== 'itRing') return;
  ctx.beginPath();
  ctx.arc(x, y, r + (7 + 5 * m.pulse) * k, 0, Math.PI * 2);
  ctx.fillStyle = `rgba(255, 77, 109, ${0.14 + 0.16 * m.pulse})`;
  ctx.fill();
}

const widths = new Map<string, number>();

function labelWidth(ctx: CanvasRenderingContext2D, label: string, font: string): number {
  const key = `${font}|${label}`;
  let width = widths.get(key);
  if (width === undefined) {
    width = ctx.measureText(label).width;
    if (widths.size > 256) widths.clear();
    widths.set(key, width);
  }
  return width;
}

/**
 * Draws every player from its marks (playerMarks: body, the chaser's ring, orbit and badge, the local ring and
 * cooldown, the tag-back shield), then the name labels where placeLabels finds room for them, each on a dark pill.
 * `time` (seconds) drives the pulse and the orbit.
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
  const k = ratio;
  const placed: Placed[] = players.map((p) => {
    const l = look(p.id);
    return { p, x: toCanvasX(t, p.x), y: toCanvasY(t, p.y), look: l, marks: playerMarks(p, l, time, SCALES) };
  });
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Reach and the chaser's glow first, so none of them covers a body, its own or a neighbour's.
  for (const { x, y, marks } of placed) {
    for (const m of marks) {
      if (m.kind === 'reach') drawMark(ctx, m, x, y, r, k, t);
      else drawUnderlay(ctx, m, x, y, r, k);
    }
  }
  for (const { x, y, marks } of placed) {
    for (const m of marks) if (m.kind !== 'reach') drawMark(ctx, m, x, y, r, k, t);
  }
  const font = `650 ${Math.round(LABEL_FONT_PX * k)}px system-ui, sans-serif`;
  const badgeFont = `900 ${Math.round(11 * k)}px system-ui, sans-serif`;
  ctx.font = badgeFont;
  const badgeWidth = labelWidth(ctx, 'IT', badgeFont) + 12 * k;
  ctx.font = font;
  const order = [...placed].sort((a, b) => labelRank(a.p) - labelRank(b.p));
  const labels = order.map((o) => (o.p.self ? `${o.look.name} (you)` : o.look.name));
  const badged = order.map((o) => o.marks.find((m) => m.kind === 'itBadge'));
  const requests: LabelRequest[] = order.map((o, i) => ({
    x: o.x,
    y: o.y,
    // Clear of the rings drawn around the body.
    radius: r + 10 * k,
    width: labelWidth(ctx, labels[i]!, font) + 2 * LABEL_PAD_X * k + (badged[i] ? badgeWidth + 4 * k : 0),
    height: LABEL_HEIGHT * k,
  }));
  // Labels stay inside the arena's walls, a little clear of them, not against the canvas edge.
  const insetX = t.offsetX + LABEL_WALL_GAP * k;
  const insetY = t.offsetY + LABEL_WALL_GAP * k;
  const inside = {
    x: insetX,
    y: insetY,
    width: Math.max(0, ctx.canvas.width - 2 * insetX),
    height: Math.max(0, ctx.canvas.height - 2 * insetY),
  };
  const boxes = placeLabels(requests, inside, 2 * k);
  boxes.forEach((box, i) => {
    const o = order[i]!;
    const badge = badged[i];
    ctx.beginPath();
    ctx.roundRect(box.x, box.y, box.width, box.height, box.height / 2);
    ctx.fillStyle = o.p.self ? 'rgba(11, 13, 23, 0.9)' : 'rgba(11, 13, 23, 0.75)';
    ctx.fill();
    ctx.lineWidth = 1.5 * k;
    ctx.strokeStyle = badge ? badge.colour : o.p.self ? 'rgba(255, 255, 255, 0.7)' : 'rgba(255, 255, 255, 0.12)';
    ctx.stroke();
    let textX = box.x + box.width / 2;
    if (badge) {
      // The IT badge: a filled pill at the label's start, the name after it.
      const bx = box.x + 2 * k;
      ctx.beginPath();
      ctx.roundRect(bx, box.y + 2 * k, badgeWidth, box.height - 4 * k, (box.height - 4 * k) / 2);
      ctx.fillStyle = badge.colour;
      ctx.fill();
      ctx.font = badgeFont;
      ctx.fillStyle = '#0b0d17';
      ctx.fillText(badge.text, bx + badgeWidth / 2, box.y + box.height / 2 + 0.5 * k);
      ctx.font = font;
      textX += (badgeWidth + 4 * k) / 2;
    }
    ctx.fillStyle = '#eef0ff';
    ctx.fillText(labels[i]!, textX, box.y + box.height / 2 + 0.5 * k);
  });
}
