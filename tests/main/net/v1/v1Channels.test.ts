import { describe, expect, it } from 'vitest';
import { Channel, CHANNEL_POLICY } from '../../../../shared/net/channel';
import {
  CHANNEL_OF_V1_WIRE,
  V1_CONTROL_WIRE,
  V1_RELIABLE_WIRES,
  V1_WIRE_OF,
  V1_WIRE_RELIABLE,
} from '../../../../main/net/v1/v1Channels';
import { Native } from '../../../../main/net/native/wire/nativeWire';
import { Wire } from '../../../../main/net/v1/protocol';
import { jsonSerializer } from '../../../../main/net/v1/serialization';
import { SimulatedPair } from '../../../support/simulatedLink';

describe('v1 channel tables, derived from the policies', () => {
  it('sends each channel with its own v1 byte, or the one of the v1 channel it travels as', () => {
    for (const p of CHANNEL_POLICY) {
      const travelsAs = CHANNEL_POLICY.find((q) => q.inV1 && q.v1Wire === p.v1Wire)!;
      expect(V1_WIRE_OF[p.id]).toBe(travelsAs.v1Wire);
      expect(travelsAs.reliable || !p.reliable).toBe(true);
    }
    expect(V1_WIRE_OF[Channel.UNRELIABLE_SEQUENCED]).toBe(V1_WIRE_OF[Channel.UNRELIABLE]);
    expect(V1_CONTROL_WIRE).toBe(0);
    expect(V1_RELIABLE_WIRES).toEqual([1, 2]);
  });

  it('knows only the bytes of the channels v1 has, none of them the native magic', () => {
    for (let byte = 0; byte < 256; byte++) {
      const channel = CHANNEL_OF_V1_WIRE[byte]!;
      expect(channel).toBe(byte <= 2 ? byte : -1);
      expect(V1_WIRE_RELIABLE[byte]).toBe(channel >= 0 && CHANNEL_POLICY[channel]!.reliable ? 1 : 0);
    }
    expect(CHANNEL_OF_V1_WIRE[Native.MAGIC]).toBe(-1);
  });
});

describe('v1 Connection reads its channels from the policies', () => {
  it('delivers every channel as the v1 channel it travels as', () => {
    const pair = new SimulatedPair();
    for (const p of CHANNEL_POLICY) pair.a.send('m', { id: p.id }, p.id);
    pair.run(1, 0.005, () => pair.received.b.length === CHANNEL_POLICY.length);
    const arrived = new Map(pair.received.b.map(([, payload, channel]) => [payload.id, channel]));
    expect(Object.fromEntries(arrived)).toMatchObject({
      [Channel.UNRELIABLE]: Channel.UNRELIABLE,
      [Channel.RELIABLE_ORDERED]: Channel.RELIABLE_ORDERED,
      [Channel.RELIABLE_UNORDERED]: Channel.RELIABLE_UNORDERED,
      [Channel.UNRELIABLE_SEQUENCED]: Channel.UNRELIABLE,
    });
    for (const p of CHANNEL_POLICY) expect(arrived.get(p.id)).toBe(CHANNEL_OF_V1_WIRE[V1_WIRE_OF[p.id]!]);
    // Each went out with the v1 header byte it travels with.
    const sent = pair.sent.a
      .map((d) => [jsonSerializer.deserialize(d.subarray(Wire.HEADER_SIZE)), d[0]] as const)
      .filter(([m]) => m.type === 'm')
      .map(([m, byte]) => [m.payload.id, byte]);
    expect(sent).toEqual(CHANNEL_POLICY.map((p) => [p.id, V1_WIRE_OF[p.id]]));
  });

  it('takes a header byte that is no reliable channel as the control channel, without crashing', () => {
    const pair = new SimulatedPair();
    pair.b.receive({ channel: 9, sequence: 0, ack: 0, ackBitfield: 0 }, { type: 'x', payload: {} }, 30);
    expect(pair.received.b).toEqual([['x', {}, Channel.UNRELIABLE]]);
  });
});
