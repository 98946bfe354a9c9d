import { decode, encode, RoomCodeError } from './roomCode';
import { formatInternetInvite, looksLikeInternetCode, readInternetCode } from './rendezvous';
import type { DeepLink } from './ipc/schemas/shell';

/** The URL scheme LAN Party registers with the OS (`lanparty://join/<code>`). */
export const DEEP_LINK_SCHEME = 'lanparty';

/** Longest link looked at; anything longer is refused before any parsing (a code link is 27 to 98 characters). */
export const DEEP_LINK_MAX_LENGTH = 256;

/** A parsed link, or why it was refused (safe to log: never echoes more than a short prefix of the input). */
export type DeepLinkParse =
  { readonly ok: true; readonly link: DeepLink } | { readonly ok: false; readonly reason: string };

// The one path segment, before percent-decoding: code characters and the separators people type (a direct room's
// NET- code is 30 characters, a DHT room's 82, each separator may arrive percent-encoded).
const SEGMENT = /^[0-9A-Za-z%._-]{1,128}$/;
// After decoding: alphabet characters and separators only, so the decoders never see spaces or punctuation tricks;
// no longer than the internet code reader looks at.
const DECODED_CODE = /^[0-9A-Za-z._-]{1,96}$/;

function refuse(reason: string): DeepLinkParse {
  return { ok: false, reason };
}

/**
 * Parses a link the OS handed us. Only `lanparty://join/<code>` (scheme and host in any case, one path segment,
 * an optional trailing slash some launchers add, no query, fragment, user or port) whose code decodes is accepted:
 * a LAN room code or an internet code of any kind (rendezvous, direct or DHT), told apart as the join field does;
 * the code comes back re-encoded in canonical form. Anything else is refused with a reason, never thrown.
 */
export function parseDeepLink(input: unknown): DeepLinkParse {
  if (typeof input !== 'string') return refuse(`not text (${typeof input})`);
  if (input.length > DEEP_LINK_MAX_LENGTH) return refuse(`too long (${input.length} characters)`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(input)?.[1];
  if (scheme?.toLowerCase() !== DEEP_LINK_SCHEME) return refuse('not a lanparty: link');
  const rest = input.slice(scheme.length + 1);
  if (!rest.startsWith('//')) return refuse('no //join/ after lanparty:');
  if (/[?#]/.test(rest)) return refuse('has a query or fragment');
  const [host, ...segments] = rest.slice(2).split('/');
  if (host?.toLowerCase() !== 'join') return refuse('not a join link');
  if (segments.length === 2 && segments[1] === '') segments.pop();
  if (segments.length !== 1) return refuse(`expected one path segment, got ${segments.length}`);
  const segment = segments[0] ?? '';
  if (!SEGMENT.test(segment)) return refuse('the code part has characters a room code never has');
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return refuse('the code part has broken percent-encoding');
  }
  if (!DECODED_CODE.test(text)) return refuse('the code part has characters a room code never has');
  if (looksLikeInternetCode(text)) {
    const internet = readInternetCode(text);
    if (!internet.ok) return refuse(`bad internet code: ${internet.reason}`);
    return { ok: true, link: { kind: 'join', code: formatInternetInvite(internet.invite) } };
  }
  try {
    const address = decode(text);
    return { ok: true, link: { kind: 'join', code: encode(address.host, address.port) } };
  } catch (error) {
    if (error instanceof RoomCodeError) return refuse(`bad room code: ${error.message}`);
    throw error;
  }
}

/** The link that opens the join screen with this room code filled in (the room's "Copy invite link"). */
export function inviteLink(code: string): string {
  return `${DEEP_LINK_SCHEME}://join/${encodeURIComponent(code)}`;
}
