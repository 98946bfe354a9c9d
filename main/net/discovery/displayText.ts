/** Control, format (bidi overrides, zero-width) and separator characters that could disguise a name in a list. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name safe to show in a list: unsafe characters removed, trimmed, at most `maxChars` characters. */
export function cleanDisplayText(text: string, maxChars: number): string {
  return Array.from(text.replace(UNSAFE_CHARACTERS, '').trim()).slice(0, maxChars).join('');
}
