/**
 * `value × scale` as a whole number in [min, max] when `value` is exactly that number ÷ scale (a value rounded to
 * 1/scale by the sender); undefined otherwise, so nothing is ever rounded here.
 */
export function quantize(value: unknown, scale: number, min: number, max: number): number | undefined {
  if (typeof value !== 'number') return undefined;
  const whole = Math.round(value * scale);
  return whole / scale === value && whole >= min && whole <= max ? whole : undefined;
}
