import type { ConditionerSummary, NetStats } from '../../../../shared/ipc/schemas/game';
import { RingBuffer } from './ringBuffer';

/** One point of the net graph: the worst room link at one poll. */
export interface NetSample {
  /** Milliseconds, null while not measured (or no link). */
  readonly rttMs: number | null;
  readonly jitterMs: number;
  /** 0–1. */
  readonly loss: number;
  /** Snapshots the screen received per second since the previous sample. */
  readonly snapshotsPerSecond: number;
}

/** Polls kept: 30 s at the graph's 4 Hz. */
export const NET_GRAPH_SAMPLES = 120;

/** Smallest RTT scale of the plot (ms), so a quiet LAN does not fill the graph with noise. */
export const MIN_RTT_SCALE_MS = 20;

/** Folds a `net.stats` answer into one sample: a guest's one link, or the host's worst guest link. */
export function sampleOf(stats: NetStats, snapshotsPerSecond: number): NetSample {
  let rttMs: number | null = null;
  let jitterMs = 0;
  let loss = 0;
  for (const link of stats.links) {
    if (link.rttMs !== null) rttMs = Math.max(rttMs ?? 0, link.rttMs);
    jitterMs = Math.max(jitterMs, link.jitterMs);
    loss = Math.max(loss, link.loss);
  }
  return { rttMs, jitterMs, loss, snapshotsPerSecond };
}

/** The y scale (ms at the top) for the samples: the largest RTT plus jitter, rounded up to a step of 10 ms. */
export function rttScale(samples: readonly NetSample[]): number {
  let top = MIN_RTT_SCALE_MS;
  for (const s of samples) if (s.rttMs !== null) top = Math.max(top, s.rttMs + s.jitterMs);
  return Math.ceil(top / 10) * 10;
}

/**
 * Plot coordinates of `values` (oldest first) in a `width`×`height` box: newest at the right edge, one sample
 * per `step` pixels, `max` at the top; null values break the line (returned as null).
 */
export function plotPoints(
  values: readonly (number | null)[],
  width: number,
  height: number,
  max: number,
  step = width / (NET_GRAPH_SAMPLES - 1),
): ({ x: number; y: number } | null)[] {
  const n = values.length;
  return values.map((v, i) => {
    if (v === null || !(max > 0)) return null;
    const clamped = Math.min(max, Math.max(0, v));
    return { x: width - (n - 1 - i) * step, y: height - (clamped / max) * height };
  });
}

/** The graph's history plus the text lines under it. */
export class NetGraphModel {
  readonly samples = new RingBuffer<NetSample>(NET_GRAPH_SAMPLES);
  private statsValue: NetStats | null = null;

  /** Records one poll. */
  add(stats: NetStats, snapshotsPerSecond: number): void {
    this.statsValue = stats;
    this.samples.push(sampleOf(stats, snapshotsPerSecond));
  }

  /** The latest poll's answer. */
  get stats(): NetStats | null {
    return this.statsValue;
  }

  /**
   * "RTT 12 ms · jitter 1.5 ms · loss 0.0 % · 60 snapshots/s", or a note when there is nothing to show. The rate is
   * the room's from `net.stats` (the host's choice, or what this guest receives), else what the screen counted.
   */
  summary(): string {
    const s = this.samples.latest();
    if (s === undefined || this.statsValue === null) return 'Measuring…';
    if (this.statsValue.links.length === 0)
      return this.statsValue.role === 'host' ? 'No guests connected' : 'Not connected';
    const rtt = s.rttMs === null ? '–' : `${Math.round(s.rttMs)} ms`;
    const rate = this.statsValue.snapshotsPerSecond ?? s.snapshotsPerSecond;
    return `RTT ${rtt} · jitter ${s.jitterMs.toFixed(1)} ms · loss ${(s.loss * 100).toFixed(1)} % · ${Math.round(rate)} snapshots/s`;
  }

  /** Whose link the graph shows. */
  scope(): string {
    const stats = this.statsValue;
    if (stats === null || stats.role === null) return '';
    if (stats.role === 'guest') return `to ${stats.links[0]?.name ?? 'host'}`;
    return stats.links.length === 1 ? `to ${stats.links[0]!.name}` : `worst of ${stats.links.length} guests`;
  }
}

/** The link conditioner's settings as one line, or null when none is active. */
export function conditionerLine(conditioner: ConditionerSummary): string | null {
  if (conditioner === null) return null;
  const side = (d: { latencyMs: number; jitterMs: number; loss: number }) =>
    `${Math.round(d.latencyMs)}±${Math.round(d.jitterMs)} ms, ${(d.loss * 100).toFixed(1)} % loss`;
  return `Link conditioner: up ${side(conditioner.upstream)} · down ${side(conditioner.downstream)}`;
}
