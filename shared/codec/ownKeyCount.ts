/** How many enumerable own keys `value` has: a payload with keys a schema does not name must travel as JSON. */
export function ownKeyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count += 1;
  return count;
}
