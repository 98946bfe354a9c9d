// Names and chat are shown to other people: whatever reaches a screen goes through this one normaliser, so two
// strings that look the same are (mostly) the same string, and nothing hides or reorders text around it.

/** Runs of any Unicode white space, line and paragraph separators included (NBSP becomes a plain space). */
const WHITESPACE_RUN = /\p{White_Space}+/gu;

/**
 * Characters that draw nothing or change how neighbours draw: controls, format characters (bidi overrides such
 * as U+202E, zero-width spaces and joiners, the soft hyphen), lone surrogates, line/paragraph separators and the
 * other default-ignorables (Hangul fillers U+3164/U+115F/U+1160/U+FFA0, variation selectors).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
/** {@link HIDDEN} without the global flag, for a stateless test. */
const HAS_HIDDEN = new RegExp(HIDDEN.source, 'u');

/** A fourth and later combining mark on one character ("Zalgo" text that spills over the lines around it). */
const MARK_PILE = /(\p{M}{3})\p{M}+/gu;

/** Characters that count as something to see: anything but white space, marks on their own and blank glyphs. */
const VISIBLE = /[^\p{White_Space}\p{M}\u2800]/u;

/**
 * The one normal form of text people type for others (player names, room names, chat): NFKC (fullwidth and
 * styled letters become plain ones), hidden characters removed, at most three marks per character, white space
 * collapsed to single spaces and trimmed. Idempotent and pure.
 */
export function normalizeText(text: string): string {
  const folded = text.normalize('NFKC').replace(WHITESPACE_RUN, ' ').replace(HIDDEN, '').replace(MARK_PILE, '$1');
  // Removing a hidden character can bring two spaces or a letter and its mark together: normalise once more.
  return folded.replace(/ {2,}/g, ' ').trim().normalize('NFKC');
}

/** Whether normalized text shows anything at all (U+200B, U+3164 or a lone accent do not). */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/** Whether text contains characters {@link normalizeText} removes, so a form can refuse them instead. */
export function hasHiddenCharacters(text: string): boolean {
  return HAS_HIDDEN.test(text.normalize('NFKC'));
}

/** The first `keep` characters of `text`, with `…` after them when anything was cut (for echoing untrusted input). */
export function clipText(text: string, keep: number): string {
  return text.length > keep ? `${text.slice(0, keep)}…` : text;
}

/** The longest prefix of `text` within `maxUnits` UTF-16 code units that does not split a character. */
export function clipToUnits(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > maxUnits) break;
    out += char;
  }
  return out;
}
