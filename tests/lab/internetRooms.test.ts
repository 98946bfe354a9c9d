import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineMatching } from '../support/lineMatching';
import { startLabRendezvous } from '../support/labRendezvous';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { RoomPeer } from '../support/labRoomDriver';
import { hasPython } from '../support/galeReferencePeer';
import { mintTurnCredentials } from '../../main/net/ice';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';

// Internet rooms end to end in a small internet of namespaces (tests/support/natLab.ts): a whole backend per
// player (tests/support/labRoomPeer.ts), the self-hosted rendezvous (the host CLI's --rendezvous mode) and
// coturn on the public side. Over each path: host an internet room, join by its NET- code, chat, ready,
// start, play a little, leave; the path each guest took is asserted.
const skip = natLabUnavailableReason();
const RDV_PORT = 8787;

let lab: NatLab;
const children: ChildProcess[] = [];
let rendezvousUrl = '';

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: {
      eim1: 'endpoint-independent',
      eim2: 'endpoint-independent',
      sym1: 'symmetric',
      sym2: 'symmetric',
      block: 'udp-blocked',
    },
    players: {
      e1: { router: 'eim1' },
      e2: { router: 'eim2' },
      s1: { router: 'sym1' },
      s2: { router: 'sym2' },
      b1: { router: 'block' },
      pub: 'public',
      rdv: 'public',
      py: 'public',
    },
  });
  const rendezvous = await startLabRendezvous(lab, 'rdv', RDV_PORT);
  children.push(rendezvous.child);
  rendezvousUrl = rendezvous.url;
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await lab?.destroy();
});

/** A backend in `player`'s namespace, on the lab's rendezvous. */
const startPeer = (player: string) => RoomPeer.start(lab, player, rendezvousUrl);

/** Hosts an internet room in `hostAt`, joins it from `guestAt`, plays through a round and leaves. */
async function playOver(hostAt: string, guestAt: string): Promise<{ path: string | undefined; code: string }> {
  const [host, guest] = await Promise.all([startPeer(hostAt), startPeer(guestAt)]);
  try {
    const hosted = await host.command('lobby.host', { roomName: `${hostAt} room`, reach: 'internet' });
    const code = hosted.internet!.code;
    expect(code).toMatch(/^NET-/);
    const joined = await guest.command('lobby.joinByCode', { code: code.toLowerCase() });
    expect(joined.status).toBe('in-room');
    expect(guest.views.some((v) => v.joinStep === 'finding-host')).toBe(true);
    const seen = await host.until((v) => (v.state?.players.length ?? 0) === 2, 'the guest in the host’s room');
    const path = seen.state!.players[1]!.path;
    await guest.call('lobby.chat', { text: 'hello over the internet' });
    await host.call('lobby.chat', { text: 'welcome' });
    await guest.until((v) => v.state?.chat.length === 2, 'both chat lines at the guest');
    await guest.call('lobby.setReady', { ready: true });
    await host.until((v) => v.state?.players[1]?.ready === true, 'the guest ready');
    await host.call('lobby.start');
    await guest.until((v) => v.state?.phase === 'playing', 'the round at the guest');
    for (let sequence = 1; sequence <= 30; sequence += 1) {
      const accepted = await guest.call<{ accepted: boolean }>('game.input', {
        inputs: [{ sequence, moveX: 1, moveY: 0, tag: false }],
        interpolationDelay: 0.1,
      });
      if (sequence === 30) expect(accepted.accepted).toBe(true);
    }
    const before = guest.snapshots;
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const poll = () =>
        guest.snapshots > before + 10
          ? resolve()
          : Date.now() > deadline
            ? reject(new Error('no snapshots'))
            : setTimeout(poll, 50);
      poll();
    });
    await guest.call('lobby.leave');
    await host.until((v) => v.state?.players.length === 1, 'the guest gone from the host’s room');
    await host.call('lobby.leave');
    return { path, code };
  } finally {
    host.stop();
    guest.stop();
  }
}

describe.skipIf(skip)('internet rooms across NATs', () => {
  it('both behind endpoint-independent NATs: direct', async () => {
    expect((await playOver('e1', 'e2')).path).toBe('direct');
  }, 120_000);

  it('both behind symmetric NATs: relayed', async () => {
    expect((await playOver('s1', 's2')).path).toBe('relayed');
  }, 120_000);

  it('UDP blocked except to the TURN port: relayed', async () => {
    expect((await playOver('pub', 'b1')).path).toBe('relayed');
  }, 120_000);

  it('host on the public side: direct', async () => {
    expect((await playOver('pub', 'e1')).path).toBe('direct');
  }, 120_000);

  it('fails in words: wrong code, a closed room, the rendezvous down', async () => {
    const guest = await startPeer('e2');
    const host = await startPeer('e1');
    try {
      const hosted = await host.command('lobby.host', { reach: 'internet' });
      const code = hosted.internet!.code;
      // One character changed: refused by the check character before anything is sent.
      const typo = code.slice(0, -1) + (code.endsWith('0') ? '1' : '0');
      const wrong = await guest.tryCall('lobby.joinByCode', { code: typo });
      expect(wrong.ok).toBe(false);
      expect(wrong.error!.message).toMatch(/typo|check|mistyped|code/i);
      await host.call('lobby.leave');
      const closed = await guest.tryCall('lobby.joinByCode', { code });
      expect(closed.ok).toBe(false);
      expect(closed.error!.message).toMatch(/does not exist any more|expired|closed/i);
      await guest.call('settings.update', {
        internet: {
          rendezvousUrl: `ws://${lab.addresses.rdv}:${RDV_PORT + 1}/rendezvous/v1`,
          turn: { mode: 'shared-secret' },
        },
      });
      const down = await guest.tryCall('lobby.joinByCode', { code });
      expect(down.ok).toBe(false);
      expect(down.error!.message).toMatch(/cannot (be )?reach/i);
    } finally {
      host.stop();
      guest.stop();
    }
  }, 120_000);

  it('says so when the TURN credentials have expired and no direct path exists', async () => {
    const expired = mintTurnCredentials(lab.turn.secret, 'old', 60, Date.now() / 1000 - 3600);
    const turn = {
      mode: 'static',
      server: `${lab.turn.host}:${lab.turn.port}`,
      username: expired.username,
      password: expired.password,
    };
    const [host, guest] = await Promise.all([startPeer('s1'), startPeer('s2')]);
    try {
      await Promise.all(
        [host, guest].map((peer) => peer.call('settings.update', { internet: { rendezvousUrl, turn } })),
      );
      const hosted = await host.command('lobby.host', { reach: 'internet' });
      const failed = await guest.tryCall('lobby.joinByCode', { code: hosted.internet!.code });
      expect(failed.ok).toBe(false);
      expect(failed.error!.message).toMatch(/credentials|expired/i);
      expect((await guest.call<LobbyView>('lobby.get')).status).toBe('idle');
    } finally {
      host.stop();
      guest.stop();
    }
  }, 120_000);

  it.skipIf(!hasPython)(
    'a Python gale.net peer reaches an internet room’s host by its LAN address',
    async () => {
      const host = await startPeer('pub');
      try {
        const hosted = await host.command('lobby.host', { reach: 'internet' });
        const script = fileURLToPath(new URL('../support/galeReferencePeer.py', import.meta.url));
        const python = lab.spawnIn('py', 'env', [
          `GALE_STANDIN_NAMESPACE_ADDRESS=${lab.addresses.py!}`,
          'python3',
          script,
          'client',
          lab.addresses.pub!,
          String(hosted.port),
        ]);
        children.push(python);
        await lineMatching(python, /"event": ?"connected"/, 15_000);
      } finally {
        host.stop();
      }
    },
    60_000,
  );
});
