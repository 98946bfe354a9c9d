import { randomInt } from 'node:crypto';
import type { IpcContract } from '../../shared/ipc/contract';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import type { ConditionerSummary } from '../../shared/ipc/schemas/game';
import { LinkConditioner, type LinkConditionerOptions } from './linkConditioner';
import { DEFAULT_LINK_PROFILE, LinkProfileError, parseLinkProfilePatch, type LinkProfile } from './linkProfile';
import type { HandlersOf } from '../ipc/handlerTypes';
import type { Logger } from '../base/logger';

/** The impairments a developer may simulate from the app (both directions alike). */
export interface DevLinkProfile {
  loss: number;
  latencyMs: number;
  jitterMs: number;
}

/** `dev.getConditioner` / `dev.setConditioner` output: the chosen profile and whether the current stay uses it. */
export interface DevConditionerView {
  profile: DevLinkProfile | null;
  /** True while this app's room connection goes through the conditioner. */
  active: boolean;
}

/** Where a guest should send instead of the room, and how to stop relaying once the stay ends. */
export interface JoinRoute {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Options of {@link createDevConditioner}. */
export interface DevConditionerOptions {
  readonly logger: Logger;
  /** Swappable for tests. */
  readonly start?: (options: LinkConditionerOptions) => Promise<LinkConditioner>;
}

/** The developer's "simulate a bad network" switch: a profile in memory and the relay of the current stay. */
export interface DevConditioner {
  view(): DevConditionerView;
  /**
   * Replaces the profile (omitted fields are 0) and applies it live if joined through the relay, or clears it with
   * null; throws IpcError invalid-argument for a bad value or unknown field.
   */
  set(profile: Partial<DevLinkProfile> | null): DevConditionerView;
  /** Starts a relay to the room when a profile is set (null otherwise); the lobby service joins through it. */
  routeTo(target: { host: string; port: number }): Promise<JoinRoute | null>;
  /** What `net.stats` reports: the profile in front of the current room connection, or null. */
  summary(): ConditionerSummary;
}

const DEV_FIELDS: readonly string[] = ['loss', 'latencyMs', 'jitterMs'] satisfies (keyof DevLinkProfile)[];

const fullProfile = (p: DevLinkProfile): Partial<LinkProfile> => ({
  loss: p.loss,
  latencyMs: p.latencyMs,
  jitterMs: p.jitterMs,
});

/** Creates the in-memory (never persisted) developer link conditioner. */
export function createDevConditioner(options: DevConditionerOptions): DevConditioner {
  const start = options.start ?? ((o: LinkConditionerOptions) => LinkConditioner.start(o));
  let profile: DevLinkProfile | null = null;
  let live: LinkConditioner | null = null;

  const view = (): DevConditionerView => ({ profile: profile && { ...profile }, active: live !== null });

  return {
    view,
    set(input) {
      if (input === null) {
        profile = null;
        // The relay stays until the stay ends; it just stops impairing.
        live?.setProfile('both', fullProfile(DEFAULT_LINK_PROFILE));
        return view();
      }
      let patch: Partial<LinkProfile>;
      try {
        const unknown = Object.keys(input).filter((k) => !DEV_FIELDS.includes(k));
        if (unknown.length > 0) {
          throw new IpcError(IpcErrorCode.INVALID_ARGUMENT, `Not a simulated network setting: ${unknown.join(', ')}`);
        }
        patch = parseLinkProfilePatch(input);
      } catch (error) {
        if (error instanceof LinkProfileError) throw new IpcError(IpcErrorCode.INVALID_ARGUMENT, error.message);
        throw error;
      }
      const next: DevLinkProfile = {
        loss: patch.loss ?? 0,
        latencyMs: patch.latencyMs ?? 0,
        jitterMs: patch.jitterMs ?? 0,
      };
      live?.setProfile('both', fullProfile(next));
      profile = next;
      return view();
    },
    async routeTo(target) {
      if (profile === null) return null;
      const relay = await start({
        listenHost: '127.0.0.1',
        listenPort: 0,
        target,
        upstream: fullProfile(profile),
        downstream: fullProfile(profile),
        // Each relay its own loss pattern (randomness, not a clock read); the relay keeps it as `seed` for a repeat.
        seed: randomInt(0, 0x1_0000_0000),
        // The room may be on the LAN: relaying beyond this machine is the developer's explicit choice.
        allowNonLoopback: true,
      });
      live = relay;
      options.logger.info(
        `dev link conditioner: relaying 127.0.0.1:${relay.address.port} → ${target.host}:${target.port}`,
      );
      return {
        host: '127.0.0.1',
        port: relay.address.port,
        close: async () => {
          if (live === relay) live = null;
          await relay.close();
        },
      };
    },
    summary() {
      if (live === null || profile === null) return null;
      const side = (p: LinkProfile) => ({ latencyMs: p.latencyMs, jitterMs: p.jitterMs, loss: p.loss });
      return { upstream: side(live.profile('upstream')), downstream: side(live.profile('downstream')) };
    },
  };
}

/** The gateway handlers for the developer conditioner requests. */
export function devConditionerHandlers(
  dev: DevConditioner,
): Pick<HandlersOf<IpcContract>, 'dev.getConditioner' | 'dev.setConditioner'> {
  return {
    'dev.getConditioner': () => dev.view(),
    'dev.setConditioner': ({ profile }) => dev.set(profile),
  };
}
