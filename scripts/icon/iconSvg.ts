import { ICON_UNITS, type Colour, type Layer, type Paint } from './iconDesign';

function colourAttributes(prefix: 'fill' | 'stroke' | 'stop', { hex, opacity }: Colour): string {
  const colour = prefix === 'stop' ? `stop-color="${hex}"` : `${prefix}="${hex}"`;
  return opacity === undefined ? colour : `${colour} ${prefix === 'stop' ? 'stop' : prefix}-opacity="${opacity}"`;
}

function paintAttributes(paint: Paint, target: 'fill' | 'stroke', gradientId: string): string {
  return paint.kind === 'solid' ? colourAttributes(target, paint.colour) : `${target}="url(#${gradientId})"`;
}

function gradient(paint: Paint, id: string): string | undefined {
  if (paint.kind !== 'linear') return undefined;
  const [x1, y1] = paint.from;
  const [x2, y2] = paint.to;
  return (
    `    <linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">\n` +
    `      <stop offset="0" ${colourAttributes('stop', paint.start)}/>\n` +
    `      <stop offset="1" ${colourAttributes('stop', paint.end)}/>\n` +
    `    </linearGradient>`
  );
}

function element(layer: Layer, gradientId: string): string {
  const { shape, paint } = layer;
  switch (shape.kind) {
    case 'roundedRect':
      return `<rect x="${shape.x}" y="${shape.y}" width="${shape.size}" height="${shape.size}" rx="${shape.radius}" ${paintAttributes(paint, 'fill', gradientId)}/>`;
    case 'circle':
      return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" ${paintAttributes(paint, 'fill', gradientId)}/>`;
    case 'capsule':
      // A round-capped stroke is exactly a capsule of half-width r.
      return (
        `<line x1="${shape.from[0]}" y1="${shape.from[1]}" x2="${shape.to[0]}" y2="${shape.to[1]}" ` +
        `stroke-width="${shape.r * 2}" stroke-linecap="round" ${paintAttributes(paint, 'stroke', gradientId)}/>`
      );
  }
}

/** The layers as a standalone SVG document (the same picture the rasterizer draws). */
export function iconSvg(layers: readonly Layer[], title: string): string {
  const ids = layers.map((_, index) => `paint${index}`);
  const gradients = layers.map((layer, index) => gradient(layer.paint, ids[index] as string)).filter(Boolean);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ICON_UNITS}" height="${ICON_UNITS}" viewBox="0 0 ${ICON_UNITS} ${ICON_UNITS}">`,
    `  <title>${title}</title>`,
    ...(gradients.length > 0 ? ['  <defs>', ...gradients, '  </defs>'] : []),
    ...layers.map((layer, index) => `  ${element(layer, ids[index] as string)}`),
    '</svg>',
    '',
  ].join('\n');
}
