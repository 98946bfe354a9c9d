import { describe, expect, it } from 'vitest';
import { DelayQueue } from '../../../main/conditioner/relay/delayQueue';
import { LinkModel, type LinkDecision } from '../../../main/conditioner/linkModel';
import { resolveLinkProfile, type LinkProfile } from '../../../main/conditioner/linkProfile';
import { SeededRandom } from '../../../shared/random/prng';

function model(patch: Partial<LinkProfile>, seed = 1): LinkModel {
  return new LinkModel(resolveLinkProfile(patch), new SeededRandom(seed));
}

/** Feeds n datagrams of `size` bytes, one every `spacingMs`, and returns each arrival time with its decision. */
function feed(m: LinkModel, n: number, spacingMs = 1, size = 100): { sent: number; d: LinkDecision }[] {
  return Array.from({ length: n }, (_, i) => {
    const sent = i * spacingMs;
    return { sent, d: m.decide(size, sent) };
  });
}

const delivered = (rows: { sent: number; d: LinkDecision }[]) =>
  rows.flatMap(({ sent, d }, seq) => (d.kind === 'deliver' ? [{ sent, seq, ...d }] : []));

describe('LinkModel', () => {
  it('delivers everything at once, in order, when the profile is perfect', () => {
    const m = model({});
    expect(m.transparent).toBe(true);
    for (const { sent, d } of feed(m, 1000)) {
      expect(d).toEqual({ kind: 'deliver', at: sent, duplicateAt: undefined, heldBack: false });
    }
  });

  it('drops the configured share independently (100k datagrams)', () => {
    const rows = feed(model({ loss: 0.1 }, 2), 100_000);
    const drops = rows.filter((r) => r.d.kind === 'drop');
    expect(drops.length / rows.length).toBeGreaterThan(0.097);
    expect(drops.length / rows.length).toBeLessThan(0.103);
    expect(drops.every((r) => r.d.kind === 'drop' && r.d.reason === 'loss')).toBe(true);
  });

  it('drops in bursts with the Gilbert–Elliott model, reason "burst"', () => {
    const rows = feed(model({ burstEnter: 0.01, burstExit: 0.2 }, 4), 100_000);
    const lost = rows.map((r) => r.d.kind === 'drop');
    const rate = lost.filter(Boolean).length / lost.length;
    expect(rate).toBeGreaterThan(0.01 / 0.21 - 0.01);
    expect(rate).toBeLessThan(0.01 / 0.21 + 0.01);
    let bursts = 0;
    for (let i = 0; i < lost.length; i++) if (lost[i] && !lost[i - 1]) bursts++;
    const meanBurst = lost.filter(Boolean).length / bursts;
    expect(meanBurst).toBeGreaterThan(4.6);
    expect(meanBurst).toBeLessThan(5.4);
    expect(rows.every((r) => r.d.kind === 'deliver' || r.d.reason === 'burst')).toBe(true);
  });

  it('applies a fixed latency exactly', () => {
    for (const row of delivered(feed(model({ latencyMs: 40 }), 100))) expect(row.at).toBe(row.sent + 40);
  });

  it('keeps jittered delays within latency ± jitter and uses the whole range', () => {
    const rows = delivered(feed(model({ latencyMs: 50, jitterMs: 20 }, 8), 2000, 100));
    const delays = rows.map((r) => r.at - r.sent);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(30);
    expect(Math.max(...delays)).toBeLessThanOrEqual(70);
    expect(Math.min(...delays)).toBeLessThan(31);
    expect(Math.max(...delays)).toBeGreaterThan(69);
  });

  it('never lets jitter reorder, even at high rates, and stays within the bounds', () => {
    const rows = delivered(feed(model({ latencyMs: 50, jitterMs: 20 }, 8), 5000, 0.5));
    const outOfOrder = rows.filter((r, i) => i > 0 && r.at < rows[i - 1]!.at);
    expect(outOfOrder).toEqual([]);
    const delays = rows.map((r) => r.at - r.sent);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(30);
    expect(Math.max(...delays)).toBeLessThanOrEqual(70);
  });

  it('floors the delay at zero when jitter exceeds latency', () => {
    const rows = delivered(feed(model({ latencyMs: 5, jitterMs: 50 }, 3), 1000, 200));
    expect(rows.every((r) => r.at >= r.sent)).toBe(true);
    expect(rows.some((r) => r.at === r.sent)).toBe(true);
  });

  it('duplicates the configured share; the copy never arrives before the datagrams ahead of it', () => {
    const rows = delivered(feed(model({ duplicate: 0.05, latencyMs: 10, jitterMs: 5 }, 5), 100_000));
    const copies = rows.filter((r) => r.duplicateAt !== undefined);
    expect(copies.length / rows.length).toBeGreaterThan(0.047);
    expect(copies.length / rows.length).toBeLessThan(0.053);
    expect(copies.filter((r) => r.duplicateAt! < r.at)).toEqual([]);
  });

  it('reorders: held-back datagrams are overtaken by later ones', () => {
    const rows = delivered(feed(model({ latencyMs: 10, reorder: 0.1, reorderDelayMs: 20 }, 6), 10_000));
    const held = rows.filter((r) => r.heldBack);
    expect(held.length / rows.length).toBeGreaterThan(0.09);
    expect(held.length / rows.length).toBeLessThan(0.11);
    for (const r of held) expect(r.at).toBe(r.sent + 30);

    // Release them through the delay queue, as the relay does, and look at the order they come out in.
    const queue = new DelayQueue<number>();
    for (const r of rows) queue.push(r.at, r.seq);
    const order: number[] = [];
    for (let s = queue.pop(); s !== undefined; s = queue.pop()) order.push(s);
    let late = 0;
    let highest = -1;
    for (const s of order) {
      if (s < highest) late++;
      else highest = s;
    }
    // Every held datagram is overtaken (the next one arrives 1 ms later and leaves 19 ms earlier).
    expect(late).toBe(held.length);
  });

  it('keeps order when reorder is 0', () => {
    const rows = delivered(feed(model({ latencyMs: 10, jitterMs: 9, duplicate: 0.1 }, 6), 10_000));
    const times = rows.flatMap((r) => [r.at, ...(r.duplicateAt === undefined ? [] : [r.duplicateAt])]);
    expect(rows.some((r) => r.heldBack)).toBe(false);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('spaces deliveries to the bandwidth cap (1000 B at 100 kbit/s = 80 ms each)', () => {
    const m = model({ bandwidthKbps: 100, maxBacklogMs: 10_000 });
    const at = Array.from({ length: 5 }, () => m.decide(1000, 0)).map((d) => (d.kind === 'deliver' ? d.at : NaN));
    expect(at).toEqual([80, 160, 240, 320, 400]);
    // An idle link starts fresh: no credit builds up while nothing is sent.
    const later = m.decide(1000, 10_000);
    expect(later.kind === 'deliver' && later.at).toBe(10_080);
  });

  it('adds propagation delay after the bottleneck', () => {
    const m = model({ bandwidthKbps: 100, latencyMs: 25 });
    const d = m.decide(500, 1000);
    expect(d.kind === 'deliver' && d.at).toBe(1000 + 40 + 25);
  });

  it('holds offered load above the cap to the cap', () => {
    // 1 Mbit/s cap, 1250-byte datagrams (10 ms each), offered every 5 ms for 2 s.
    const rows = delivered(feed(model({ bandwidthKbps: 1000, maxBacklogMs: 60_000 }), 400, 5, 1250));
    const gaps = rows.slice(1).map((r, i) => r.at - rows[i]!.at);
    expect(gaps.every((g) => Math.abs(g - 10) < 1e-9)).toBe(true);
  });

  it('tail-drops once the queueing delay would exceed maxBacklogMs', () => {
    const m = model({ bandwidthKbps: 100, maxBacklogMs: 200 });
    const burst = Array.from({ length: 5 }, () => m.decide(1000, 0));
    expect(burst.map((d) => (d.kind === 'deliver' ? d.at : d.reason))).toEqual([80, 160, 240, 'backlog', 'backlog']);
    // At t = 100 the queue ahead drains by 240, a 140 ms wait: accepted again.
    const next = m.decide(1000, 100);
    expect(next.kind === 'deliver' && next.at).toBe(320);
  });

  it('makes duplicates use bandwidth too', () => {
    const m = model({ bandwidthKbps: 100, duplicate: 1 });
    const d = m.decide(1000, 0);
    expect(d).toEqual({ kind: 'deliver', at: 80, duplicateAt: 160, heldBack: false });
  });

  it('makes the same decisions for the same seed and different ones for another', () => {
    const profile = { loss: 0.05, burstEnter: 0.01, latencyMs: 20, jitterMs: 10, duplicate: 0.02, reorder: 0.05 };
    const a = feed(model(profile, 77), 10_000).map((r) => r.d);
    const b = feed(model(profile, 77), 10_000).map((r) => r.d);
    const c = feed(model(profile, 78), 10_000).map((r) => r.d);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('applies a new profile from the next datagram on', () => {
    const m = model({ latencyMs: 10 });
    expect(m.decide(10, 0)).toMatchObject({ kind: 'deliver', at: 10 });
    m.setProfile(resolveLinkProfile({ loss: 1 }));
    expect(m.transparent).toBe(false);
    expect(m.decide(10, 1)).toEqual({ kind: 'drop', reason: 'loss' });
    m.setProfile(resolveLinkProfile({}));
    expect(m.transparent).toBe(true);
    expect(m.profile).toEqual(resolveLinkProfile({}));
  });
});
