import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Logger } from '../../../../main/base/logger';
import { systemScheduler } from '../../../../main/base/scheduler';
import { startDedicatedHost, type DedicatedHost } from '../../../../main/cli/dedicatedHost';
import type { HostCliOptions } from '../../../../main/cli/hostCliArgs';
import { startRendezvousMode, type RendezvousMode } from '../../../../main/cli/rendezvousMode';
import { LobbyGuest } from '../../../../main/lobby/lobbyGuest';
import { createInternetReach } from '../../../../main/reach/internet/index';

// Loopback only: the rendezvous, the room and the guests on 127.0.0.1, ICE offered 127.0.0.1 as a host candidate.

/** Where a test registers what its afterEach closes, newest first. */
export type Cleanups = Array<() => Promise<unknown>>;

/** A dedicated room's options on loopback, discovery off. */
export const LOOPBACK_ROOM: HostCliOptions = {
  name: 'Always On',
  port: 0,
  maxPlayers: 4,
  password: undefined,
  discoveryPort: null,
  announce: false,
  bindAddress: '127.0.0.1',
  advertiseAddress: '127.0.0.1',
  logFile: undefined,
};

/** The service key file of the rendezvous a test starts, by the test's cleanups: a restart keeps the rooms' owners. */
const serviceKeyFiles = new WeakMap<Cleanups, string>();

/** The test's service key file, in a folder of its own that its cleanups remove (after the services they close). */
function serviceKeyFileFor(cleanups: Cleanups): string {
  let file = serviceKeyFiles.get(cleanups);
  if (file === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'lp-rendezvous-key-'));
    file = join(dir, 'service-key');
    serviceKeyFiles.set(cleanups, file);
    cleanups.push(async () => {
      serviceKeyFiles.delete(cleanups);
      rmSync(dir, { recursive: true, force: true });
    });
  }
  return file;
}

/** The WebSocket URL of a rendezvous listening on 127.0.0.1:`port`. */
export function loopbackRendezvousUrl(port: number): string {
  return `ws://127.0.0.1:${port}/rendezvous/v1`;
}

/** The rendezvous service on 127.0.0.1 (`port` 0: a free one), without TURN unless given `turnUrls` to name. */
export async function loopbackRendezvous(
  cleanups: Cleanups,
  port = 0,
  turnUrls: string[] = [],
): Promise<RendezvousMode> {
  const mode = await startRendezvousMode(
    {
      host: '127.0.0.1',
      port,
      turnUrls,
      turnSecret: turnUrls.length > 0 ? 'loopback-secret' : undefined,
      logFile: undefined,
      serviceKeyFile: serviceKeyFileFor(cleanups),
      tls: undefined,
      trustedProxies: [],
    },
    () => undefined,
  );
  cleanups.push(() => mode.close());
  return mode;
}

/** A dedicated internet room registered with the rendezvous at `url`, its NET- code read from the banner. */
export async function loopbackInternetRoom(
  cleanups: Cleanups,
  url: string,
  log: (line: string) => void = () => undefined,
  room: Partial<HostCliOptions> = {},
): Promise<{ dedicated: DedicatedHost; code: string }> {
  const dedicated = await startDedicatedHost(
    { ...LOOPBACK_ROOM, ...room, internet: { rendezvousUrl: url } },
    { log, iceHostAddresses: ['127.0.0.1'] },
  );
  cleanups.push(() => dedicated.close());
  const code = /NET(-[0-9A-Z]{4}){4}/.exec(dedicated.banner.join('\n'))?.[0];
  if (code === undefined) throw new Error(`no NET- code in the banner:\n${dedicated.banner.join('\n')}`);
  return { dedicated, code };
}

/** A guest joining by the NET- code through the internet reach, as the app does; `password` for a password room. */
export async function joinByInternetCode(
  cleanups: Cleanups,
  url: string,
  code: string,
  name: string,
  logger: Logger = silentLogger,
  password?: string,
): Promise<LobbyGuest> {
  const reach = createInternetReach({
    settings: async () => ({ rendezvousUrl: url, turn: { mode: 'none' } }),
    scheduler: systemScheduler,
    logger,
    hostAddresses: ['127.0.0.1'],
  });
  const passwordGiven = password !== undefined;
  const located = await reach.locate({ code }, { onProgress: () => undefined });
  cleanups.push(() => located.close());
  const guest = await LobbyGuest.join({
    host: located.connectTo!.host,
    port: located.connectTo!.port,
    playerName: name,
    colour: '#3ddc97',
    timeout: 5,
    transport: { openSocket: located.openSocket! },
    ...(passwordGiven ? { password } : {}),
    // As joinRoom passes it: each try to come back opens a new ICE path first.
    ...(located.rejoinTimeoutSec !== undefined ? { rejoinTimeout: located.rejoinTimeoutSec } : {}),
    logger,
  });
  cleanups.push(() => guest.leave());
  return guest;
}
