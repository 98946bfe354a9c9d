/**
 * The datagrams of a direct room's own UDP port (the one its router maps): a join's CPace run in three
 * datagrams, the host's sealed welcome, a budget's "wait", then the path's AEAD-sealed datagrams. The first byte
 * says which; nothing on this port is plain gale.net, so a stranger without the secret reaches no room state.
 *
 *   guest → host  OFFER    0xD1 ‖ u16 length ‖ offer ‖ zero padding to OFFER_DATAGRAM_BYTES
 *   host → guest  ANSWER   0xD2 ‖ answer                  (never larger than the padded offer: no amplification)
 *   guest → host  CONFIRM  0xD3 ‖ the guest's 64-byte tag
 *   host → guest  WELCOME  0xD4 ‖ WELCOME_TEXT sealed under the host→guest signal key (signalSeal.ts)
 *   host → guest  BUSY     0xD5 ‖ u32 milliseconds to wait  (the room-wide guess budget is spent)
 *   both          DATA     0xD6 ‖ a secureSocket datagram
 */

/** The first byte of each kind of datagram. */
export const DirectKind = {
  OFFER: 0xd1,
  ANSWER: 0xd2,
  CONFIRM: 0xd3,
  WELCOME: 0xd4,
  BUSY: 0xd5,
  DATA: 0xd6,
} as const;
/** One of {@link DirectKind}'s values. */
export type DirectKind = (typeof DirectKind)[keyof typeof DirectKind];

/** An offer datagram is padded to this size, so whoever sends it gets back no more than it sent. */
export const OFFER_DATAGRAM_BYTES = 256;
/** A CPace confirmation tag's length (keyAgreement.ts). */
export const CONFIRM_TAG_BYTES = 64;
/** The labels a direct path's datagram keys are bound to (each run's keys are fresh already). */
export const DIRECT_KEY_LABELS = { host: 'direct-host', guest: 'direct-guest' } as const;
/** What the host's welcome seals: the guest reads it as "the room keeps a path for you". */
export const WELCOME_TEXT = 'lan-party direct welcome v1';

/** One received datagram, read; undefined for anything that is not one of ours (dropped, never thrown). */
export type DirectDatagram =
  | { readonly kind: typeof DirectKind.OFFER; readonly offer: Uint8Array }
  | { readonly kind: typeof DirectKind.ANSWER; readonly answer: Uint8Array }
  | { readonly kind: typeof DirectKind.CONFIRM; readonly tag: Uint8Array }
  | { readonly kind: typeof DirectKind.WELCOME; readonly sealed: string }
  | { readonly kind: typeof DirectKind.BUSY; readonly waitMs: number }
  | { readonly kind: typeof DirectKind.DATA; readonly body: Uint8Array };

const bytesOf = (datagram: Uint8Array) => Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);

/** Reads a datagram of the direct port; the parts are views into `datagram` (copy what outlives the call). */
export function parseDirectDatagram(datagram: Uint8Array): DirectDatagram | undefined {
  if (datagram.length < 1) return undefined;
  const bytes = bytesOf(datagram);
  const rest = bytes.subarray(1);
  switch (bytes[0]) {
    case DirectKind.OFFER: {
      if (bytes.length !== OFFER_DATAGRAM_BYTES) return undefined;
      const length = bytes.readUInt16BE(1);
      if (length === 0 || 3 + length > bytes.length) return undefined;
      return { kind: DirectKind.OFFER, offer: bytes.subarray(3, 3 + length) };
    }
    case DirectKind.ANSWER:
      return rest.length > 0 && bytes.length <= OFFER_DATAGRAM_BYTES
        ? { kind: DirectKind.ANSWER, answer: rest }
        : undefined;
    case DirectKind.CONFIRM:
      return rest.length === CONFIRM_TAG_BYTES ? { kind: DirectKind.CONFIRM, tag: rest } : undefined;
    case DirectKind.WELCOME:
      return rest.length > 0 && rest.length <= 128
        ? { kind: DirectKind.WELCOME, sealed: rest.toString('latin1') }
        : undefined;
    case DirectKind.BUSY:
      return rest.length === 4 ? { kind: DirectKind.BUSY, waitMs: rest.readUInt32BE(0) } : undefined;
    case DirectKind.DATA:
      return { kind: DirectKind.DATA, body: rest };
    default:
      return undefined;
  }
}

/** The padded offer datagram; throws a RangeError for an offer that cannot fit (a bug, not input). */
export function offerDatagram(offer: Uint8Array): Buffer {
  if (offer.length === 0 || 3 + offer.length > OFFER_DATAGRAM_BYTES) throw new RangeError('offer does not fit');
  const out = Buffer.alloc(OFFER_DATAGRAM_BYTES);
  out[0] = DirectKind.OFFER;
  out.writeUInt16BE(offer.length, 1);
  out.set(offer, 3);
  return out;
}

/** `kind` ‖ `body`. */
export function directDatagram(kind: DirectKind, body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(1 + body.length);
  out[0] = kind;
  out.set(body, 1);
  return out;
}

/** The busy datagram: wait this many milliseconds before asking again. */
export function busyDatagram(waitMs: number): Buffer {
  const out = Buffer.alloc(5);
  out[0] = DirectKind.BUSY;
  out.writeUInt32BE(Math.max(0, Math.min(0xffffffff, Math.ceil(waitMs))), 1);
  return out;
}

/** The welcome datagram, its sealed text as base64url bytes. */
export function welcomeDatagram(sealed: string): Buffer {
  return directDatagram(DirectKind.WELCOME, Buffer.from(sealed, 'latin1'));
}
