import type { ResolvedNativeOptions } from './negotiation';
import { packHeader } from '../../v1/header';
import { ReservedType } from '../../v1/protocol';
import type { Serializer } from '../../v1/serialization';
import { DropReason } from '../../v1/stats';
import { ConnectCookies, encodeCookie } from './connectCookie';
import { acceptOffer, cookieBinding, parseOffer, type NativeParams } from './negotiation';
import { Native } from '../wire/nativeWire';
import { deriveNativeKeys, generateNativeKeyPair } from '../protection/nativeKeys';
import type { DirectionKeys } from '../protection/packetProtection';

/** What to do with a connect request from an address that has no peer yet. */
export type AdmissionDecision =
  | { kind: 'v1' }
  | { kind: 'native'; params: NativeParams; peerRecvWindow: number; keys: DirectionKeys }
  | { kind: 'challenge'; datagram: Uint8Array }
  | { kind: 'drop'; reason: DropReason };

/**
 * The server's door for connect requests. A request without an offer is v1 (the reference's
 * way). An offer must echo a cookie this door issued to the same address and port recently;
 * until it does, the answer is a challenge and no state is kept, so spoofed requests cost one
 * small reply each and no peer slot.
 */
export class NativeAdmission {
  private readonly cookies: ConnectCookies;

  constructor(
    private readonly native: ResolvedNativeOptions | undefined,
    /** The v1 handshake codec (the challenge travels in v1 framing). */
    private readonly serializer: Serializer,
    clock: () => number,
    /** Our receive window, advertised in every accept. */
    private readonly recvWindow: number,
  ) {
    this.cookies = new ConnectCookies({ clock });
  }

  /** Decides on a connect request's payload (`size`: the whole datagram, for the amplification check). */
  decide(payload: Record<string, unknown>, size: number, address: string, port: number): AdmissionDecision {
    const offer = this.native ? parseOffer(payload) : undefined;
    if (!offer || !this.native) return { kind: 'v1' };
    // A reply must never be larger than its request, or spoofed requests become an amplifier.
    if (size < Native.MIN_OFFER_DATAGRAM) return { kind: 'drop', reason: DropReason.TOO_SHORT };
    const binding = cookieBinding(offer);
    if (offer.cookie && this.cookies.verify(offer.cookie, address, port, binding)) {
      // A key pair per peer: the address proved, the X25519 work is spent only on a real client.
      const pair = generateNativeKeyPair();
      const keys = deriveNativeKeys(pair, offer.key, 'server');
      if (!keys) return { kind: 'drop', reason: DropReason.BAD_BODY };
      const params = acceptOffer(offer, { ...this.native, recvWindow: this.recvWindow, key: pair.publicKey });
      return { kind: 'native', params, peerRecvWindow: offer.recvWindow, keys };
    }
    const cookie = encodeCookie(this.cookies.issue(address, port, binding));
    const body = this.serializer.serialize(ReservedType.NATIVE_CHALLENGE, { cookie });
    const header = packHeader({ channel: 0, token: 0n, sequence: 0, ack: 0, ackBitfield: 0 });
    const datagram = new Uint8Array(header.byteLength + body.byteLength);
    datagram.set(header);
    datagram.set(body, header.byteLength);
    if (datagram.byteLength > size) return { kind: 'drop', reason: DropReason.TOO_SHORT };
    return { kind: 'challenge', datagram };
  }
}
