import { describe, expect, it } from 'vitest';
import {
  conditionerLine,
  NET_GRAPH_SAMPLES,
  NetGraphModel,
  plotPoints,
  rttScale,
  sampleOf,
} from '../../../../renderer/src/game/netGraph/netGraphModel';
import { RingBuffer } from '../../../../renderer/src/game/netGraph/ringBuffer';
import type { NetStats } from '../../../../shared/ipc/schemas/game';

const link = (peerId: number, rttMs: number | null, jitterMs = 0, loss = 0) => ({
  peerId,
  name: `P${peerId}`,
  rttMs,
  jitterMs,
  loss,
  packetsSentPerSecond: 30,
  packetsReceivedPerSecond: 30,
});

describe('ring buffer', () => {
  it('keeps the newest entries in order and overwrites the oldest when full', () => {
    const ring = new RingBuffer<number>(3);
    expect(ring.latest()).toBeUndefined();
    for (let i = 1; i <= 5; i += 1) ring.push(i);
    expect(ring.length).toBe(3);
    expect(ring.toArray()).toEqual([3, 4, 5]);
    expect([ring.at(0), ring.at(2), ring.at(3), ring.at(-1), ring.latest()]).toEqual([3, 5, undefined, undefined, 5]);
    ring.clear();
    expect(ring.toArray()).toEqual([]);
    ring.push(9);
    expect(ring.toArray()).toEqual([9]);
  });

  it('refuses a capacity below one', () => {
    expect(() => new RingBuffer(0)).toThrow(RangeError);
    expect(() => new RingBuffer(1.5)).toThrow(RangeError);
  });
});

describe('net graph model', () => {
  it('samples a guest link, or the worst of the host links', () => {
    const guest: NetStats = {
      role: 'guest',
      links: [link(0, 12, 1.5, 0.01)],
      conditioner: null,
      snapshotsPerSecond: null,
    };
    expect(sampleOf(guest, 30)).toEqual({ rttMs: 12, jitterMs: 1.5, loss: 0.01, snapshotsPerSecond: 30 });
    const host: NetStats = {
      role: 'host',
      links: [link(1, 5, 4), link(2, null, 0, 0.2), link(3, 40)],
      conditioner: null,
      snapshotsPerSecond: null,
    };
    expect(sampleOf(host, 0)).toEqual({ rttMs: 40, jitterMs: 4, loss: 0.2, snapshotsPerSecond: 0 });
    expect(sampleOf({ role: null, links: [], conditioner: null, snapshotsPerSecond: null }, 0).rttMs).toBeNull();
  });

  it('keeps 30 s of history and describes the latest poll', () => {
    const model = new NetGraphModel();
    expect(model.summary()).toBe('Measuring…');
    for (let i = 0; i < NET_GRAPH_SAMPLES + 10; i += 1) {
      model.add({ role: 'guest', links: [link(0, i)], conditioner: null, snapshotsPerSecond: null }, 29.6);
    }
    expect(model.samples.length).toBe(NET_GRAPH_SAMPLES);
    expect(model.samples.at(0)!.rttMs).toBe(10);
    expect(model.summary()).toBe('RTT 129 ms · jitter 0.0 ms · loss 0.0 % · 30 snapshots/s');
    expect(model.scope()).toBe('to P0');
    model.add({ role: 'host', links: [link(1, 3), link(2, 4)], conditioner: null, snapshotsPerSecond: null }, 30);
    expect(model.scope()).toBe('worst of 2 guests');
    model.add({ role: 'host', links: [], conditioner: null, snapshotsPerSecond: null }, 0);
    expect(model.summary()).toBe('No guests connected');
  });

  it('shows the room’s snapshot rate from net.stats (the host’s choice) over what the screen counted', () => {
    const model = new NetGraphModel();
    model.add({ role: 'host', links: [link(1, 3)], conditioner: null, snapshotsPerSecond: 60 }, 58.7);
    expect(model.summary()).toBe('RTT 3 ms · jitter 0.0 ms · loss 0.0 % · 60 snapshots/s');
    model.add({ role: 'guest', links: [link(0, 20)], conditioner: null, snapshotsPerSecond: 20 }, 19.2);
    expect(model.summary()).toMatch(/ · 20 snapshots\/s$/);
  });

  it('scales the plot to the largest RTT plus jitter, at least 20 ms, in steps of 10', () => {
    expect(rttScale([])).toBe(20);
    expect(rttScale([{ rttMs: 31, jitterMs: 2, loss: 0, snapshotsPerSecond: 0 }])).toBe(40);
    expect(rttScale([{ rttMs: null, jitterMs: 99, loss: 0, snapshotsPerSecond: 0 }])).toBe(20);
  });

  it('plots newest at the right edge, clamps to the box and breaks the line at gaps', () => {
    const points = plotPoints([0, null, 50, 200], 300, 100, 100, 10);
    expect(points).toEqual([{ x: 270, y: 100 }, null, { x: 290, y: 50 }, { x: 300, y: 0 }]);
    expect(plotPoints([5], 100, 100, 0)).toEqual([null]);
  });

  it('describes a link conditioner, or nothing without one', () => {
    expect(conditionerLine(null)).toBeNull();
    const d = { latencyMs: 40, jitterMs: 5, loss: 0.02 };
    expect(conditionerLine({ upstream: d, downstream: { ...d, loss: 0 } })).toBe(
      'Link conditioner: up 40±5 ms, 2.0 % loss · down 40±5 ms, 0.0 % loss',
    );
  });
});
