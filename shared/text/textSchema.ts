import { z } from 'zod';
import { hasHiddenCharacters, hasVisibleText, normalizeText } from './normalizeText';

/** How long and how strict one kind of text is. */
export interface TextRules {
  /** What the text is, for messages: "Name", "Room name", "Message". */
  readonly label: string;
  /** Most characters (code points) after normalising. */
  readonly maxChars?: number;
  /** Most UTF-16 units after normalising (the lobby wire's limit for names). */
  readonly maxUnits?: number;
  /** Refuse hidden characters with a message instead of dropping them: for forms the player fills in. */
  readonly refuseHidden?: boolean;
}

// Input is capped before normalising so a peer cannot make us normalise megabytes; NFKC and stripping only
// ever shrink a legitimate string a little, so 8× the limit is generous.
const RAW_FACTOR = 8;

/** A zod schema for text people show each other: {@link normalizeText} applied, visible, within the limits. */
export function normalizedTextSchema(rules: TextRules) {
  const { label, maxChars, maxUnits } = rules;
  const rawMax = RAW_FACTOR * Math.max(maxChars ?? 0, maxUnits ?? 0, 1);
  return z
    .string()
    .max(rawMax, `${label} is far too long`)
    .refine((s) => !rules.refuseHidden || !hasHiddenCharacters(s), {
      message: `${label} cannot contain control or invisible characters`,
      abort: true,
    })
    .transform(normalizeText)
    .refine(hasVisibleText, { message: `${label} cannot be empty`, abort: true })
    .refine((s) => maxChars === undefined || [...s].length <= maxChars, {
      message: `${label} must be at most ${maxChars} characters`,
    })
    .refine((s) => maxUnits === undefined || s.length <= maxUnits, {
      message: `${label} must be at most ${maxUnits} characters`,
    });
}

/**
 * A zod schema for text a peer should already have normalised (a host's room state): refused unless it is in
 * normal form, visible and within the limits, so a hostile host cannot slip hidden characters past us.
 */
export function normalTextSchema(rules: Omit<TextRules, 'refuseHidden'>) {
  const { label, maxChars, maxUnits } = rules;
  const units = maxUnits ?? 2 * (maxChars ?? 0);
  return z
    .string()
    .max(units, `${label} is too long`)
    .refine((s) => maxChars === undefined || [...s].length <= maxChars, `${label} is too long`)
    .refine((s) => normalizeText(s) === s && hasVisibleText(s), `${label} is not in normal form`);
}
