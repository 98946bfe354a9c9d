import { afterEach, describe, expect, it } from 'vitest';
import {
  DiscoveryPortRegistry,
  createLanBrowser,
  type UnicastTarget,
  type UnicastTargetStatus,
} from '../../../../../main/net/discovery';
import { UnicastTargetTracker } from '../../../../../main/net/discovery/browser/unicastTargets';
import { createRecordingLogger, freeUdpPort, startTestResponder, waitFor } from '../loopbackHelpers';
import { ManualScheduler } from '../../../../support/manualScheduler';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('UnicastTargetTracker', () => {
  const a: UnicastTarget = { host: '100.64.0.7', port: 9998 };
  const b: UnicastTarget = { host: '100.64.0.8', port: 4000 };

  it('waits one round, then says answered or no-answer, and forgets removed targets', () => {
    const tracker = new UnicastTargetTracker();
    expect(tracker.statuses([a])).toEqual([{ ...a, status: 'waiting' }]);
    tracker.roundSent([a, b], []);
    expect(tracker.statuses([a, b]).map((s) => s.status)).toEqual(['waiting', 'waiting']);
    expect(tracker.heard(a.host, a.port, 'id:x')).toBe(true);
    expect(tracker.heard(a.host, 1234, 'id:y')).toBe(false); // right host, wrong port: not the target
    tracker.roundSent([a, b], []);
    expect(tracker.statuses([a, b])).toEqual([
      { ...a, status: 'answered', serverKey: 'id:x' },
      { ...b, status: 'no-answer' },
    ]);
    // One lost reply is normal (round 2's); two in a row are not.
    tracker.roundSent([a], []);
    expect(tracker.statuses([a])[0]?.status).toBe('answered');
    tracker.roundSent([a], []);
    expect(tracker.statuses([a])[0]?.status).toBe('no-answer');
    // b was dropped from the rounds: added again, it starts over.
    expect(tracker.statuses([b])[0]?.status).toBe('waiting');
  });

  it('marks a target whose query could not be sent as unreachable, with the reason', () => {
    const tracker = new UnicastTargetTracker();
    tracker.roundSent([a], [{ target: a.host, port: a.port, code: 'ENETUNREACH', message: 'send ENETUNREACH' }]);
    expect(tracker.statuses([a])).toEqual([{ ...a, status: 'unreachable', detail: 'ENETUNREACH: send ENETUNREACH' }]);
    tracker.roundSent([a], []);
    expect(tracker.statuses([a])[0]?.status).toBe('no-answer');
  });
});

describe('createLanBrowser with unicast targets (loopback)', () => {
  it('lists a server asked by address on its own port with a ping, and reports a silent one', async () => {
    // The responder listens on 127.0.0.2 on a port no broadcast goes to: only the unicast query can find it.
    const searchPort = await freeUdpPort();
    const serverPort = await freeUdpPort();
    const silentPort = await freeUdpPort();
    await startTestResponder(serverPort, cleanups, {
      name: 'Over the VPN',
      gamePort: 7100,
      instanceId: 'vpn',
      bindAddress: '127.0.0.2',
      getPlayerCount: () => 2,
      getExtraInfo: () => ({ capacity: 4, hostName: 'Ada', inRound: true }),
    });
    const scheduler = new ManualScheduler(5_000);
    const logger = createRecordingLogger();
    const targets: UnicastTarget[] = [
      { host: '127.0.0.2', port: serverPort },
      { host: '127.0.0.3', port: silentPort },
    ];
    const statuses: UnicastTargetStatus[][] = [];
    const lan = createLanBrowser({
      port: searchPort,
      scheduler,
      intervalMs: 1000,
      targets: [],
      unicastTargets: () => targets,
      listenForAnnouncements: false,
      registry: new DiscoveryPortRegistry(undefined, logger),
      // Nothing is a connected source: the reply is believed only because 127.0.0.2 is a target.
      isAllowedSource: () => false,
      logger,
    });
    lan.on('targets', (next) => statuses.push(next));
    cleanups.push(() => lan.stop());
    await lan.start();
    await waitFor(() => lan.servers().length === 1, 2000, 'the server added by address');
    expect(lan.servers()[0]).toMatchObject({
      name: 'Over the VPN',
      address: { host: '127.0.0.2', port: 7100 },
      playerCount: 2,
      capacity: 4,
      hostName: 'Ada',
      state: 'playing',
      pingMs: 0,
    });
    expect(lan.unicastStatus()[1]?.status).toBe('waiting');
    scheduler.advance(1000); // the next round: the silent target had a whole round to answer
    await waitFor(() => lan.unicastStatus()[1]?.status === 'no-answer', 2000, 'the silent target to be reported');
    expect(lan.unicastStatus()).toEqual([
      { host: '127.0.0.2', port: serverPort, status: 'answered', serverKey: 'id:vpn' },
      { host: '127.0.0.3', port: silentPort, status: 'no-answer' },
    ]);
    expect(statuses.at(-1)).toEqual(lan.unicastStatus());

    // Removed from the list, a target is no longer asked and its server expires like any other.
    targets.splice(0, 1);
    await lan.refresh();
    expect(lan.unicastStatus()).toEqual([{ host: '127.0.0.3', port: silentPort, status: 'no-answer' }]);
  });
});
