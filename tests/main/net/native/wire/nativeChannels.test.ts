import { describe, expect, it } from 'vitest';
import { Channel, CHANNEL_POLICY } from '../../../../../shared/net/channel';
import { CHANNEL_OF_NATIVE_WIRE, NATIVE_WIRE_OF, NUMBERED } from '../../../../../main/net/native/wire/nativeChannels';
import { encodeMessageFrame } from '../../../../../main/net/native/wire/nativeFrames';
import { NativePair } from '../../../../support/nativePair';

describe('native channel tables, derived from the policies', () => {
  it('maps each channel to its frame byte and back; other bytes are no channel', () => {
    for (const p of CHANNEL_POLICY) {
      expect(NATIVE_WIRE_OF[p.id]).toBe(p.nativeWire);
      expect(CHANNEL_OF_NATIVE_WIRE[p.nativeWire]).toBe(p.id);
    }
    const known = new Set<number>(CHANNEL_POLICY.map((p) => p.nativeWire));
    for (let byte = 0; byte < 256; byte++) if (!known.has(byte)) expect(CHANNEL_OF_NATIVE_WIRE[byte]).toBe(-1);
  });

  it('numbers reliable and sequenced channels only: a plain unreliable MESSAGE frame has no sequence', () => {
    for (const p of CHANNEL_POLICY) expect(NUMBERED[p.id]).toBe(p.reliable || p.sequenced ? 1 : 0);
    expect(NUMBERED[Channel.UNRELIABLE]).toBe(0);
    expect([...encodeMessageFrame(Channel.UNRELIABLE, 5, Uint8Array.of(9))]).toEqual([0x01, 0, 1, 9]);
    expect([...encodeMessageFrame(Channel.UNRELIABLE_SEQUENCED, 5, Uint8Array.of(9))]).toEqual([0x01, 3, 5, 1, 9]);
  });
});

describe('NativeConnection reads its channels from the policies', () => {
  it('delivers every channel as itself, small and fragmented', () => {
    const pair = new NativePair();
    for (const p of CHANNEL_POLICY) {
      pair.send('a', 'm', { id: p.id, big: false }, p.id);
      pair.send('a', 'm', { id: p.id, big: true, pad: 'x'.repeat(5000) }, p.id);
    }
    pair.run(1, 0.005, () => pair.received.b.length === 2 * CHANNEL_POLICY.length);
    const arrived = pair.received.b.map(([, payload, channel]) => [payload.id, payload.big, channel]);
    expect(arrived).toHaveLength(2 * CHANNEL_POLICY.length);
    for (const p of CHANNEL_POLICY) {
      expect(arrived).toContainEqual([p.id, false, p.id]);
      expect(arrived).toContainEqual([p.id, true, p.id]);
    }
    expect(pair.b.counters.droppedTotal).toBe(0);
  });
});
