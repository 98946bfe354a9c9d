import { GilbertElliott } from './model/gilbertElliott';
import { isTransparentProfile, type LinkProfile } from './linkProfile';
import type { RandomSource } from '../../shared/random/prng';

/** Why the model dropped a datagram. */
export type DropReason = 'loss' | 'burst' | 'backlog';

/** The model's verdict on one datagram (times are in the same unit and origin as the `now` passed in, ms). */
export type LinkDecision =
  | { readonly kind: 'drop'; readonly reason: DropReason }
  | {
      readonly kind: 'deliver';
      /** When the datagram comes out of the link. */
      readonly at: number;
      /** When a duplicate copy comes out too, if one was made. */
      readonly duplicateAt: number | undefined;
      /** Whether it was picked for reordering (held back so later datagrams may overtake it). */
      readonly heldBack: boolean;
    };

/**
 * One direction of an impaired link, as pure arithmetic over (datagram size, arrival time) and a seeded PRNG.
 * Pipeline: burst loss → independent loss → bandwidth bottleneck (serialisation queue, tail drop past maxBacklogMs)
 * → propagation delay (latency ± jitter, kept in order) → optional hold-back (reorder) → optional duplicate.
 */
export class LinkModel {
  private profileValue: LinkProfile;
  private readonly burst: GilbertElliott;
  /** When the bottleneck finishes serialising everything accepted so far. */
  private busyUntil = -Infinity;
  /** Latest in-order delivery time handed out; jitter never lets a later datagram come out before it. */
  private orderFloor = -Infinity;
  private transparentValue: boolean;

  constructor(
    profile: Readonly<LinkProfile>,
    private readonly rng: RandomSource,
  ) {
    this.profileValue = { ...profile };
    this.transparentValue = isTransparentProfile(profile);
    this.burst = new GilbertElliott(burstParams(profile), rng);
  }

  /** The current settings (a copy). */
  get profile(): LinkProfile {
    return { ...this.profileValue };
  }

  /** True when every impairment is off: each datagram would be delivered immediately, untouched. */
  get transparent(): boolean {
    return this.transparentValue;
  }

  /** Replaces the settings; the loss state, bottleneck queue and ordering carry over so changes apply smoothly. */
  setProfile(profile: Readonly<LinkProfile>): void {
    this.profileValue = { ...profile };
    this.transparentValue = isTransparentProfile(profile);
    this.burst.setParams(burstParams(profile));
  }

  /** Decides the fate of one datagram of `size` bytes arriving at time `now` (ms). */
  decide(size: number, now: number): LinkDecision {
    const p = this.profileValue;
    if (this.burst.lose()) return { kind: 'drop', reason: 'burst' };
    if (p.loss > 0 && this.rng.next() < p.loss) return { kind: 'drop', reason: 'loss' };

    let leaves = now;
    if (p.bandwidthKbps > 0) {
      const start = Math.max(now, this.busyUntil);
      if (start - now > p.maxBacklogMs) return { kind: 'drop', reason: 'backlog' };
      leaves = start + this.serialisationMs(size);
      this.busyUntil = leaves;
    }

    const heldBack = p.reorder > 0 && this.rng.next() < p.reorder;
    let at: number;
    if (heldBack) {
      // Outside the ordering floor on purpose: datagrams sent after it may be delivered before it.
      at = leaves + this.propagationMs() + p.reorderDelayMs;
    } else {
      at = this.inOrder(leaves + this.propagationMs());
    }

    let duplicateAt: number | undefined;
    if (p.duplicate > 0 && this.rng.next() < p.duplicate) {
      // The copy is a second datagram on the wire: it uses bandwidth and gets its own delay sample. It is never held
      // back, so when the original is, the copy usually arrives first — as a real duplicate on another path would.
      let copyLeaves = leaves;
      if (p.bandwidthKbps > 0) {
        copyLeaves = this.busyUntil + this.serialisationMs(size);
        this.busyUntil = copyLeaves;
      }
      duplicateAt = this.inOrder(copyLeaves + this.propagationMs());
    }
    return { kind: 'deliver', at, duplicateAt, heldBack };
  }

  private serialisationMs(size: number): number {
    // kbit/s = bits per ms, so bits / kbps is milliseconds.
    return (size * 8) / this.profileValue.bandwidthKbps;
  }

  private propagationMs(): number {
    const { latencyMs, jitterMs } = this.profileValue;
    if (jitterMs === 0) return latencyMs;
    return Math.max(0, latencyMs + (this.rng.next() * 2 - 1) * jitterMs);
  }

  private inOrder(at: number): number {
    const t = Math.max(at, this.orderFloor);
    this.orderFloor = t;
    return t;
  }
}

function burstParams(p: Readonly<LinkProfile>): { enter: number; exit: number; lossInBad: number } {
  return { enter: p.burstEnter, exit: p.burstExit, lossInBad: p.burstLoss };
}
