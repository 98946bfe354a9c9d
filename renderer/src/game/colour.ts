/** Parses `#rgb` or `#rrggbb` into 0–255 channels; undefined for anything else. */
export function parseHexColour(colour: string): { r: number; g: number; b: number } | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (!m) return undefined;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16) };
}

/** WCAG relative luminance of a hex colour (0 black … 1 white); mid-grey for unparsable input. */
export function luminance(colour: string): number {
  const c = parseHexColour(colour);
  if (c === undefined) return 0.2;
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** Dark or light ink for text drawn on `colour`, whichever contrasts more. */
export function inkOn(colour: string): '#0b0d17' | '#ffffff' {
  return luminance(colour) > 0.35 ? '#0b0d17' : '#ffffff';
}

/** A CSS colour safe to hand to the canvas: the player's hex colour, or a neutral one for anything else. */
export function safeColour(colour: string): string {
  return parseHexColour(colour) === undefined ? '#9aa1c7' : colour.trim();
}
