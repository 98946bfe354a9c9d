/** Up to two initials for an avatar: "Ada Lovelace" → "AL", "neo" → "NE", "" → "?". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...(words[0] ?? '')];
  const letters = words.length > 1 ? [first[0], [...(words[words.length - 1] ?? '')][0]] : first.slice(0, 2);
  return letters.join('').toUpperCase();
}
