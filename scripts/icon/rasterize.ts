import { ICON_UNITS, type Colour, type Layer, type Paint, type Shape } from './iconDesign';

type Rgba = [number, number, number, number];

function parseColour({ hex, opacity }: Colour): Rgba {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`colour must be #rrggbb, got ${hex}`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16), opacity ?? 1];
}

/** Signed distance from (x, y) to the shape's edge: negative inside, positive outside (icon units). */
export function signedDistance(shape: Shape, x: number, y: number): number {
  switch (shape.kind) {
    case 'circle':
      return Math.hypot(x - shape.cx, y - shape.cy) - shape.r;
    case 'roundedRect': {
      const half = shape.size / 2;
      const qx = Math.abs(x - (shape.x + half)) - half + shape.radius;
      const qy = Math.abs(y - (shape.y + half)) - half + shape.radius;
      return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - shape.radius;
    }
    case 'capsule': {
      const [ax, ay] = shape.from;
      const [bx, by] = shape.to;
      const [px, py, dx, dy] = [x - ax, y - ay, bx - ax, by - ay];
      const t = Math.min(1, Math.max(0, (px * dx + py * dy) / (dx * dx + dy * dy || 1)));
      return Math.hypot(px - dx * t, py - dy * t) - shape.r;
    }
  }
}

function paintAt(paint: Paint, x: number, y: number): Rgba {
  if (paint.kind === 'solid') return parseColour(paint.colour);
  const [fx, fy] = paint.from;
  const [dx, dy] = [paint.to[0] - fx, paint.to[1] - fy];
  const t = Math.min(1, Math.max(0, ((x - fx) * dx + (y - fy) * dy) / (dx * dx + dy * dy || 1)));
  const a = parseColour(paint.start);
  const b = parseColour(paint.end);
  return [0, 1, 2, 3].map((i) => (a[i] as number) + ((b[i] as number) - (a[i] as number)) * t) as Rgba;
}

/**
 * Draws the layers into `size`×`size` RGBA pixels. Edges are anti-aliased by coverage from the signed distance
 * (one pixel wide), composited back to front with "source over".
 */
export function rasterize(layers: readonly Layer[], size: number): Uint8Array {
  const scale = ICON_UNITS / size;
  const out = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = (px + 0.5) * scale;
      const y = (py + 0.5) * scale;
      // Premultiplied accumulator.
      let [r, g, b, a] = [0, 0, 0, 0];
      for (const layer of layers) {
        const coverage = Math.min(1, Math.max(0, 0.5 - signedDistance(layer.shape, x, y) / scale));
        if (coverage === 0) continue;
        const [cr, cg, cb, ca] = paintAt(layer.paint, x, y);
        const alpha = ca * coverage;
        r = cr * alpha + r * (1 - alpha);
        g = cg * alpha + g * (1 - alpha);
        b = cb * alpha + b * (1 - alpha);
        a = alpha + a * (1 - alpha);
      }
      const at = (py * size + px) * 4;
      out[at] = a > 0 ? Math.round(r / a) : 0;
      out[at + 1] = a > 0 ? Math.round(g / a) : 0;
      out[at + 2] = a > 0 ? Math.round(b / a) : 0;
      out[at + 3] = Math.round(a * 255);
    }
  }
  return out;
}
