import type { ClientMappingInfo } from './relay/clientMappings';
import type { DirectionStats } from './relay/linkPipe';
import type { LinkDirection } from './model/linkDirection';
import type { LinkProfile } from './linkProfile';

/** Counters for both directions, plus relay-level ones. */
export interface ConditionerStats {
  upstream: DirectionStats;
  downstream: DirectionStats;
  /** Live client mappings. */
  mappings: number;
  /** Datagrams reaching a mapping socket from anyone but the target (ignored; once it is connected the kernel drops them). */
  strays: number;
  /** Socket errors seen (the relay keeps running). */
  errors: number;
}

/** A running link conditioner, wherever its relay runs (the caller's thread or a worker thread). */
export interface Conditioner {
  /** The server datagrams go to (as an IP literal). */
  readonly target: { readonly host: string; readonly port: number };
  /** The seed in use (log it to repeat a run). */
  readonly seed: number;
  /** Where clients should send (host and the bound port). */
  readonly address: { host: string; port: number; family: 'IPv4' | 'IPv6' };
  /** The settings currently applied to one direction. */
  profile(direction: LinkDirection): LinkProfile;
  /** Changes settings at run time (validated; throws LinkProfileError and changes nothing if any value is bad). */
  setProfile(direction: LinkDirection | 'both', patch: Partial<LinkProfile>): void;
  /** A snapshot of every counter. */
  stats(): ConditionerStats;
  /** The client mappings (which upstream port stands for which client). */
  clients(): ClientMappingInfo[];
  /** Stops relaying, drops anything in flight and closes every socket. Safe to call twice. */
  close(): Promise<void>;
}
