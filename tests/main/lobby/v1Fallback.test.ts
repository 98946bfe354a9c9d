import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../main/base/logger';
import { fellBackToV1 } from '../../../main/lobby/host/v1Fallback';
import { lobbyViewOf, hostingPhase } from '../../../main/lobby/lobbyView';
import { lobbyViewSchema } from '../../../shared/ipc/schemas/lobby';
import { PlayerPath } from '../../../shared/lobby/lobbyState';
import { loopbackGuest, loopbackHost, type Cleanups } from '../../support/loopbackRoom';
import { startOfferStripper } from '../../support/offerStripper';

// Real rooms on 127.0.0.1, discovery off; the stripping relay listens on 127.0.0.1 too.
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function recordingLogger() {
  const warnings: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
  return { warnings, logger };
}

/** The room as the host's screen gets it: the view model, through the IPC schema the renderer parses. */
function hostScreenPlayers(h: Awaited<ReturnType<typeof loopbackHost>>) {
  const phase = hostingPhase(h, { discoverable: false, state: h.state, internet: undefined });
  return lobbyViewSchema.parse(lobbyViewOf(phase)).state!.players;
}

describe('a native-capable guest that lands on gale.net v1', () => {
  it('is marked on its player (host, guests, the host screen) and logged when its native offer was stripped', async () => {
    const { warnings, logger } = recordingLogger();
    const h = await loopbackHost(cleanups, { logger });
    const stripper = await startOfferStripper(h.port);
    cleanups.push(() => stripper.close());
    const bob = await loopbackGuest(cleanups, stripper.port, 'Bob');
    expect(stripper.stripped).toBeGreaterThan(0);
    expect(h.transport.getPeers().map((p) => p.protocol)).toEqual(['v1']);
    expect(h.state.players.find((p) => p.name === 'Bob')?.fellBackToV1).toBe(true);
    expect(bob.state.players.find((p) => p.name === 'Bob')?.fellBackToV1).toBe(true);
    expect(hostScreenPlayers(h).find((p) => p.name === 'Bob')?.fellBackToV1).toBe(true);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^Bob \(127\.0\.0\.1:\d+\) offered the native path but is connected over gale\.net v1, without message authentication/,
      ),
    ]);
  });

  it('is not marked when the native path was agreed, nor for a peer that never offered it', async () => {
    const { warnings, logger } = recordingLogger();
    const h = await loopbackHost(cleanups, { logger });
    await loopbackGuest(cleanups, h.port, 'Nat');
    // A gale.net-style peer: v1 is all it speaks, so v1 is no surprise.
    await loopbackGuest(cleanups, h.port, 'Gale', { transport: { native: false } });
    expect(
      h.transport
        .getPeers()
        .map((p) => p.protocol)
        .sort(),
    ).toEqual(['native', 'v1']);
    expect(h.state.players.map((p) => p.fellBackToV1)).toEqual([undefined, undefined, undefined]);
    expect(warnings).toEqual([]);
  });

  it('is not marked by a host that does not offer native itself, nor on an internet path (sealed end to end)', async () => {
    const { warnings, logger } = recordingLogger();
    const h = await loopbackHost(cleanups, { logger, transport: { native: false } });
    await loopbackGuest(cleanups, h.port, 'Bob');
    expect(h.transport.getPeers().map((p) => p.protocol)).toEqual(['v1']);
    expect(h.state.players.find((p) => p.name === 'Bob')?.fellBackToV1).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(fellBackToV1(true, { native: true }, 'v1', PlayerPath.DIRECT)).toBe(false);
    expect(fellBackToV1(true, { native: true }, 'v1', PlayerPath.RELAYED)).toBe(false);
    expect(fellBackToV1(true, { native: true }, 'v1', PlayerPath.LAN)).toBe(true);
  });
});
