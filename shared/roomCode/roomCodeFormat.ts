import { charCountFor } from './charCount';
import { supportsCheckCharacter } from './checkCharacter';
import { RoomCodeError, RoomCodeErrorReason } from './roomCodeError';

/** Options for {@link RoomCodeFormat}; every field defaults to the reference's default format. */
export interface RoomCodeFormatOptions {
  /** Digit characters, most significant last; at least 2, all distinct, no whitespace. */
  readonly alphabet?: string;
  /** Characters per group; at least 1. */
  readonly groupSize?: number;
  /** Placed between groups; may be empty. Decoding strips every character of it. */
  readonly groupSeparator?: string;
  /** Append one check character (not in the reference): catches one wrong character or a swap of neighbours. */
  readonly checkCharacter?: boolean;
}

/** How input letters are case-folded before lookup: only for alphabets whose letters are all one case. */
export type RoomCodeCaseFolding = 'upper' | 'lower' | 'none';

/**
 * Punctuation skipped when decoding even if this format uses another separator (unless it is in the alphabet),
 * so that formats differing only in separator read each other's codes, as the reference documents.
 */
export const COMMON_SEPARATORS = '-._/';

/** Crockford base32, the reference's default alphabet. */
export const CROCKFORD_BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function invalid(message: string): RoomCodeError {
  return new RoomCodeError(RoomCodeErrorReason.INVALID_FORMAT, message);
}

function caseFoldingOf(alphabet: string): RoomCodeCaseFolding {
  const upper = alphabet.toUpperCase();
  const lower = alphabet.toLowerCase();
  if (upper === lower) return 'none';
  if (alphabet === upper) return 'upper';
  if (alphabet === lower) return 'lower';
  return 'none';
}

/** How a room code is rendered: its alphabet, grouping and separator. Validated on construction; immutable. */
export class RoomCodeFormat {
  readonly alphabet: string;
  readonly groupSize: number;
  readonly groupSeparator: string;
  readonly checkCharacter: boolean;
  /** The alphabet split into characters (code points), digit value = index. */
  readonly symbols: readonly string[];
  /** Alphabet characters carrying the address and port (the reference's `char_count`). */
  readonly dataCharCount: number;
  /** Alphabet characters in a complete code: {@link dataCharCount}, plus one with a check character. */
  readonly charCount: number;
  /** Case folding applied to typed characters. */
  readonly caseFolding: RoomCodeCaseFolding;
  private readonly digitBySymbol: ReadonlyMap<string, number>;
  private readonly separatorSet: ReadonlySet<string>;

  constructor(options: RoomCodeFormatOptions = {}) {
    const { alphabet = CROCKFORD_BASE32, groupSize = 5, groupSeparator = '-', checkCharacter = false } = options;
    if (typeof alphabet !== 'string' || typeof groupSeparator !== 'string') {
      throw invalid('alphabet and groupSeparator must be strings');
    }
    const symbols = Array.from(alphabet);
    const digitBySymbol = new Map<string, number>();
    for (const [index, symbol] of symbols.entries()) {
      if (/\s/u.test(symbol)) throw invalid(`alphabet must not contain whitespace (found at index ${index})`);
      if (groupSeparator.includes(symbol)) throw invalid(`alphabet and groupSeparator share the character '${symbol}'`);
      if (digitBySymbol.has(symbol)) throw invalid(`alphabet repeats the character '${symbol}'`);
      digitBySymbol.set(symbol, index);
    }
    if (symbols.length < 2) throw invalid(`alphabet needs at least 2 distinct characters, got ${symbols.length}`);
    if (!Number.isInteger(groupSize) || groupSize < 1) {
      throw invalid(`groupSize must be an integer >= 1, got ${String(groupSize)}`);
    }
    if (checkCharacter && !supportsCheckCharacter(symbols.length)) {
      throw invalid(
        `a check character needs an alphabet of at least 3 characters whose size is not 2 more than a multiple ` +
          `of 4; ${symbols.length} does not work, add or remove one character`,
      );
    }
    this.alphabet = alphabet;
    this.groupSize = groupSize;
    this.groupSeparator = groupSeparator;
    this.checkCharacter = checkCharacter;
    this.symbols = Object.freeze(symbols);
    this.dataCharCount = charCountFor(symbols.length);
    this.charCount = this.dataCharCount + (checkCharacter ? 1 : 0);
    this.caseFolding = caseFoldingOf(alphabet);
    this.digitBySymbol = digitBySymbol;
    const commonUnused = Array.from(COMMON_SEPARATORS).filter((c) => !digitBySymbol.has(c));
    this.separatorSet = new Set([...Array.from(groupSeparator), ...commonUnused]);
    Object.freeze(this);
  }

  /** The digit value of a typed character after case folding, or undefined if it is not in the alphabet. */
  digitOf(character: string): number | undefined {
    const exact = this.digitBySymbol.get(character);
    if (exact !== undefined || this.caseFolding === 'none') return exact;
    const folded = this.caseFolding === 'upper' ? character.toUpperCase() : character.toLowerCase();
    return this.digitBySymbol.get(folded);
  }

  /** Whether decoding skips this character: whitespace, a group-separator character, or unused common punctuation. */
  isIgnorable(character: string): boolean {
    return this.separatorSet.has(character) || /\s/u.test(character);
  }

  /** Joins alphabet characters into groups of {@link groupSize} with {@link groupSeparator}. */
  group(symbols: readonly string[]): string {
    const groups: string[] = [];
    for (let start = 0; start < symbols.length; start += this.groupSize) {
      groups.push(symbols.slice(start, start + this.groupSize).join(''));
    }
    return groups.join(this.groupSeparator);
  }
}

/** The reference's default: Crockford base32, groups of 5, '-' between ("XXXXX-XXXXX"). */
export const DEFAULT_ROOM_CODE_FORMAT = new RoomCodeFormat();
