import { describe, expect, it } from 'vitest';
import { compactJsonSerializer } from '../../../../../main/net/v1/serialization';
import {
  acceptOffer,
  cookieBinding,
  MAX_RECV_WINDOW,
  offerPayload,
  parseAccepted,
  parseOffer,
  recvWindowFor,
  type NativeParams,
} from '../../../../../main/net/native/handshake/negotiation';
import { Native } from '../../../../../main/net/native/wire/nativeWire';
import { encodePublicKey } from '../../../../../main/net/native/protection/nativeKeys';

const KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const OFFER: NativeParams = {
  version: 2,
  mtu: 1200,
  codec: 'json',
  maxMessage: 4 << 20,
  recvWindow: 1 << 20,
  key: KEY,
};
/** The offer's fields as JSON carries them (the key in base64url). */
const WIRE = { ...OFFER, key: encodePublicKey(KEY) };

/** The offer as it travels: serialized in a connect request and read back. */
const roundTrip = (native: Record<string, unknown>) =>
  parseOffer(JSON.parse(JSON.stringify({ native })) as Record<string, unknown>);

describe('receive window negotiation', () => {
  it('advertises a quarter of the granted receive buffer, within the protocol bounds', () => {
    expect(recvWindowFor(8 * 1024 * 1024)).toBe(2 * 1024 * 1024);
    expect(recvWindowFor(425_984)).toBe(106_496); // stock Linux: 208 KiB asked, reported doubled
    expect(recvWindowFor(65_536)).toBe(Native.MIN_RECV_WINDOW); // Windows' default: the minimum
    expect(recvWindowFor(0)).toBe(Native.MIN_RECV_WINDOW); // unknown (getsockopt failed)
    expect(recvWindowFor(Number.NaN)).toBe(Native.MIN_RECV_WINDOW);
    expect(recvWindowFor(2 ** 40)).toBe(MAX_RECV_WINDOW);
  });

  it('the offer carries the window and reads back unchanged', () => {
    const payload = offerPayload(OFFER, compactJsonSerializer, '__connect_request__');
    expect((payload.native as Record<string, unknown>).recvWindow).toBe(1 << 20);
    expect(parseOffer(JSON.parse(JSON.stringify(payload)))).toEqual(OFFER);
  });

  it('an offer without a window is paced at the minimum; a malformed window refuses the offer', () => {
    const { recvWindow: _, ...bare } = WIRE;
    expect(roundTrip(bare)?.recvWindow).toBe(Native.MIN_RECV_WINDOW);
    for (const bad of [Native.MIN_RECV_WINDOW - 1, MAX_RECV_WINDOW + 1, 1.5, -1, '65536', null, true]) {
      expect(roundTrip({ ...WIRE, recvWindow: bad }), String(bad)).toBeUndefined();
    }
    expect(roundTrip({ ...WIRE, recvWindow: Native.MIN_RECV_WINDOW })?.recvWindow).toBe(Native.MIN_RECV_WINDOW);
    expect(parseAccepted({ native: { ...WIRE, recvWindow: 'lots' } })).toBe('outdated');
    expect(parseAccepted({ peer_id: 1 })).toBeUndefined();
  });

  it('each side is paced by its receiver: the accept carries the server’s own window, not the smaller', () => {
    const serverKey = new Uint8Array(32).fill(9);
    const ours = {
      mtu: 1200,
      serializer: compactJsonSerializer,
      maxMessageSize: 1 << 20,
      recvWindow: 4 << 20,
      key: serverKey,
    };
    expect(acceptOffer(OFFER, ours)).toEqual({
      key: serverKey,
      version: 2,
      mtu: 1200,
      codec: 'json',
      maxMessage: 1 << 20,
      recvWindow: 4 << 20,
    });
    expect(acceptOffer({ ...OFFER, recvWindow: 4 << 20 }, { ...ours, recvWindow: 1 << 20 }).recvWindow).toBe(1 << 20);
  });

  it('a cookie is bound to the window offered: a replay with another window does not match', () => {
    expect(cookieBinding(OFFER)).not.toBe(cookieBinding({ ...OFFER, recvWindow: OFFER.recvWindow + 1 }));
    expect(cookieBinding(OFFER)).not.toBe(cookieBinding({ ...OFFER, key: new Uint8Array(32).fill(7) }));
  });
});

describe('native version 2: packet keys in the offer and the accept', () => {
  it('the offer carries the public key as 43 base64url characters and reads back the same bytes', () => {
    const payload = offerPayload(OFFER, compactJsonSerializer, '__connect_request__');
    expect((payload.native as Record<string, unknown>).key).toBe(encodePublicKey(KEY));
    expect(parseOffer(JSON.parse(JSON.stringify(payload)))?.key).toEqual(KEY);
  });

  it('an offer of version 1, or without a usable key, is no offer: the client gets v1', () => {
    const { key: _, ...keyless } = WIRE;
    expect(roundTrip(keyless)).toBeUndefined();
    expect(roundTrip({ ...WIRE, version: 1 })).toBeUndefined();
    for (const bad of ['', 'x'.repeat(43) + '=', encodePublicKey(KEY).slice(1), 'A'.repeat(44), 42, null]) {
      expect(roundTrip({ ...WIRE, key: bad }), String(bad)).toBeUndefined();
    }
    expect(roundTrip({ ...WIRE, version: 3 })?.version).toBe(2); // a newer client is answered in ours
  });

  it('an accept of version 1 (no key) is outdated, not v1: that server would speak native to us', () => {
    const { key: _, ...keyless } = WIRE;
    expect(parseAccepted({ native: { ...keyless, version: 1 } })).toBe('outdated');
    expect(parseAccepted({ native: WIRE })).toEqual(OFFER);
  });
});
