/** A colour as #rrggbb plus opacity 0..1. */
export interface Colour {
  readonly hex: string;
  readonly opacity?: number;
}

/** A solid colour, or a linear gradient between two points (in icon units). */
export type Paint =
  | { readonly kind: 'solid'; readonly colour: Colour }
  | {
      readonly kind: 'linear';
      readonly from: readonly [number, number];
      readonly to: readonly [number, number];
      readonly start: Colour;
      readonly end: Colour;
    };

/** The three shapes the icon is drawn with; coordinates are in a 512×512 box. */
export type Shape =
  | {
      readonly kind: 'roundedRect';
      readonly x: number;
      readonly y: number;
      readonly size: number;
      readonly radius: number;
    }
  | { readonly kind: 'circle'; readonly cx: number; readonly cy: number; readonly r: number }
  | {
      readonly kind: 'capsule';
      readonly from: readonly [number, number];
      readonly to: readonly [number, number];
      readonly r: number;
    };

/** One painted shape; later layers cover earlier ones. */
export interface Layer {
  readonly shape: Shape;
  readonly paint: Paint;
}

/** Side of the square the design is drawn in. */
export const ICON_UNITS = 512;

const solid = (hex: string, opacity?: number): Paint => ({
  kind: 'solid',
  colour: opacity === undefined ? { hex } : { hex, opacity },
});

// Three players (pink, green, yellow: lobby colours) linked as one network, on a night-blue tile with confetti.
const PLAYERS = [
  { cx: 256, cy: 176, hex: '#ff5577' },
  { cx: 162, cy: 334, hex: '#22cc88' },
  { cx: 350, cy: 334, hex: '#ffcc33' },
] as const;

const link = (a: number, b: number): Layer => {
  const from = PLAYERS[a] as (typeof PLAYERS)[number];
  const to = PLAYERS[b] as (typeof PLAYERS)[number];
  return { shape: { kind: 'capsule', from: [from.cx, from.cy], to: [to.cx, to.cy], r: 10 }, paint: solid('#9aa0ff') };
};

/**
 * The LAN Party icon, back to front. The tile leaves a transparent margin (≈10 %) as macOS icon grids expect;
 * scripts/makeIcon.ts renders this list to build/icon.svg and build/icon.png.
 */
export const ICON_LAYERS: readonly Layer[] = [
  {
    shape: { kind: 'roundedRect', x: 48, y: 48, size: 416, radius: 92 },
    paint: {
      kind: 'linear',
      from: [256, 48],
      to: [256, 464],
      start: { hex: '#30358a' },
      end: { hex: '#12143a' },
    },
  },
  { shape: { kind: 'capsule', from: [108, 146], to: [128, 124], r: 6 }, paint: solid('#ffcc33') },
  { shape: { kind: 'capsule', from: [384, 112], to: [402, 134], r: 6 }, paint: solid('#22cc88') },
  { shape: { kind: 'circle', cx: 404, cy: 214, r: 8 }, paint: solid('#ff5577') },
  { shape: { kind: 'circle', cx: 112, cy: 236, r: 7 }, paint: solid('#9aa0ff') },
  { shape: { kind: 'capsule', from: [236, 420], to: [262, 412], r: 5 }, paint: solid('#ff5577', 0.85) },
  link(0, 1),
  link(0, 2),
  link(1, 2),
  ...PLAYERS.flatMap(({ cx, cy, hex }): Layer[] => [
    { shape: { kind: 'circle', cx, cy, r: 58 }, paint: solid('#12143a') },
    { shape: { kind: 'circle', cx, cy, r: 48 }, paint: solid(hex) },
    { shape: { kind: 'circle', cx, cy: cy - 8, r: 15 }, paint: solid('#ffffff', 0.92) },
    {
      shape: { kind: 'capsule', from: [cx - 12, cy + 22], to: [cx + 12, cy + 22], r: 12 },
      paint: solid('#ffffff', 0.92),
    },
  ]),
];
