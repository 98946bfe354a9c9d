import {
  CROCKFORD_BASE32,
  FULL_CODE_LENGTH,
  isShortCodeLength,
  parseJoinCode,
  RoomCodeError,
  SHORT_CODE_LENGTHS,
  scanCrockford,
} from '../../../shared/roomCode';
import {
  DIRECT_CODE_CHARS,
  INTERNET_CODE_CHARS,
  INTERNET_CODE_PREFIX,
  looksLikeInternetCode,
  readInternetCode,
} from '../../../shared/rendezvous';

/** The characters of an internet code after its NET prefix, as typed (separators dropped, upper case). */
function internetBody(raw: string): string {
  const bare = raw.toUpperCase().replace(/[\s\-._]/g, '');
  return bare.startsWith('NET') ? bare.slice(3) : bare;
}

/**
 * The hint for an internet code (NET-…): found through the rendezvous or straight at the host's router, so
 * nothing about the LAN applies. A direct room's code (it starts with D) is longer: while one is still being
 * typed, its first 16 characters are not called a mistyped rendezvous code.
 */
function internetCodeHint(raw: string): RoomCodeHint {
  const body = internetBody(raw);
  const typed = body.length;
  const counting = (of: number): RoomCodeHint => ({
    tone: 'neutral',
    text: `Internet room code: ${typed} of ${of} characters`,
    ready: false,
  });
  if (typed < INTERNET_CODE_CHARS) return counting(INTERNET_CODE_CHARS);
  const parsed = readInternetCode(raw);
  const directSoFar = body.startsWith('D') && typed < DIRECT_CODE_CHARS;
  if (!parsed.ok)
    return directSoFar ? counting(DIRECT_CODE_CHARS) : { tone: 'error', text: sentence(parsed.reason), ready: false };
  return parsed.invite.kind === 'direct'
    ? { tone: 'ok', text: 'Internet room: straight to the host, through its router', ready: true }
    : { tone: 'ok', text: 'Internet room: the host is found through your rendezvous server', ready: true };
}

/** The line under the code field: what is typed so far, what is wrong (which character, where), or where it leads. */
export interface RoomCodeHint {
  readonly tone: 'neutral' | 'error' | 'ok';
  readonly text: string;
  /** The code is complete and decodes. */
  readonly ready: boolean;
}

function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

const SHORT = `${SHORT_CODE_LENGTHS.min}–${SHORT_CODE_LENGTHS.max}`;

/**
 * Describes a typed join code, short (5–7 characters) or full (10). Pure; uses the same reader as main, so
 * the hint matches the join error. A short code with a typo is refused as typed (its check character).
 */
export function roomCodeHint(raw: string): RoomCodeHint {
  if (looksLikeInternetCode(raw)) return internetCodeHint(raw);
  const { digits, rejected } = scanCrockford(raw);
  const typed = digits.length;
  const error = (text: string): RoomCodeHint => ({ tone: 'error', text, ready: false });
  const complete = isShortCodeLength(typed) || typed === FULL_CODE_LENGTH;
  if (rejected.length > 0 || complete) {
    try {
      const code = parseJoinCode(raw);
      if (code.kind === 'short') {
        return { tone: 'ok', text: 'Short code: the host on your network is checked when you join', ready: true };
      }
      return { tone: 'ok', text: `Room at ${code.host}:${code.port}`, ready: true };
    } catch (caught) {
      if (!(caught instanceof RoomCodeError)) throw caught;
      if (caught.reason === 'check-mismatch' && isShortCodeLength(typed)) {
        return error(
          `This short code has a typo: a character is wrong or two are swapped. A full code has ${FULL_CODE_LENGTH}.`,
        );
      }
      return error(sentence(caught.message));
    }
  }
  if (typed > FULL_CODE_LENGTH) {
    return error(`That is ${typed} characters; a room code has ${SHORT} (short) or ${FULL_CODE_LENGTH} (full).`);
  }
  if (typed === 0)
    return { tone: 'neutral', text: `A short code like 0A0E4, or a full one like 3F7KQ-09XYZ`, ready: false };
  if (typed < SHORT_CODE_LENGTHS.min)
    return { tone: 'neutral', text: `${typed} characters: short codes have ${SHORT}`, ready: false };
  return { tone: 'neutral', text: `${typed} of ${FULL_CODE_LENGTH} characters`, ready: false };
}

/**
 * The code inside pasted text ("Join my room: 3F7KQ-09XYZ!"): the last run of ten code characters, with or
 * without a separator after the fifth, else the last standalone run of 5–7 (a short code); the text as is
 * when there is neither.
 */
export function extractPastedCode(text: string): string {
  // A direct room's code (D…, 21 characters) first, so it is not cut to a rendezvous code's 16.
  const internet = [
    ...text.matchAll(
      /NET[-\s._]?(?:D[0-9A-Za-z]{3}(?:[-\s._]?[0-9A-Za-z]{4}){4}[-\s._]?[0-9A-Za-z](?![0-9A-Za-z])|(?:[0-9A-Za-z]{4}[-\s._]?){3}[0-9A-Za-z]{4})/gi,
    ),
  ];
  const lastInternet = internet[internet.length - 1]?.[0];
  if (lastInternet) return lastInternet;
  const full = [...text.matchAll(/(?:^|[^0-9A-Za-z])([0-9A-Za-z]{5}[-\s._/]?[0-9A-Za-z]{5})(?![0-9A-Za-z])/g)];
  const last = full[full.length - 1]?.[1];
  if (last) return last;
  const short = [...text.matchAll(/(?:^|[^0-9A-Za-z])([0-9A-Za-z]{5,7})(?![0-9A-Za-z])/g)];
  return short[short.length - 1]?.[1] ?? text.trim();
}

/**
 * The next value of a code field: upper case with O, I and L shown as the 0, 1, 1 they are read as; a short
 * code (up to 7 characters) as one block, a longer one as "XXXXX-XXXXX"; the caret stays beside the same
 * character. With a character no code uses, the field keeps exactly what was typed, so the error's position
 * matches what is shown.
 */
export function formatCodeField(raw: string, caret: number): { value: string; caret: number } {
  if (looksLikeInternetCode(raw)) {
    // NET-XXXX-XXXX-XXXX-XXXX, as the host's screen shows it; the caret stays after the same character.
    const group = (body: string) => INTERNET_CODE_PREFIX + (body.match(/.{1,4}/g) ?? []).join('-');
    const body = internetBody(raw);
    const head = raw
      .slice(0, caret)
      .toUpperCase()
      .replace(/[\s\-._]/g, '');
    const before = head.startsWith('NET') ? head.length - 3 : 0;
    return { value: group(body), caret: before === 0 ? Math.min(caret, 4) : group(body.slice(0, before)).length };
  }
  const { digits, rejected } = scanCrockford(raw);
  if (rejected.length > 0) return { value: raw, caret };
  const symbols = digits.map((digit) => CROCKFORD_BASE32[digit] ?? '');
  const before = scanCrockford(raw.slice(0, caret)).digits.length;
  if (symbols.length <= SHORT_CODE_LENGTHS.max) return { value: symbols.join(''), caret: before };
  const grouped = (count: number) => {
    const head = symbols.slice(0, Math.min(count, 5)).join('');
    return count > 5 ? `${head}-${symbols.slice(5, count).join('')}` : head;
  };
  return { value: grouped(symbols.length), caret: grouped(before).length };
}
