import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { systemScheduler } from '../../../main/base/scheduler';
import { HostCliUsageError, TURN_SECRET_ENV, parseHostCliArgs } from '../../../main/cli/hostCliArgs';
import { openRendezvousGuest } from '../../../main/reach/internet/rendezvousGuest';
import { startRendezvousHost } from '../../../main/reach/internet/rendezvousHost';
import { runCli, type RunningCli } from '../../support/runCli';
import { waitFor } from '../../support/waitFor';
import { pakeOf } from '../rendezvous/fakePeers';
import { loopbackRendezvousUrl } from '../reach/internet/loopbackInternetRoom';

const CLI_TIMEOUT = 30_000;
const parse = (argv: string[], env: Record<string, string> = {}) => parseHostCliArgs(argv, env, 'box');

describe('host CLI --rendezvous arguments', () => {
  it('parses the listen address, TURN URLs and the secret from the flag or the environment', () => {
    expect(parse(['--rendezvous', '0.0.0.0:8787'])).toEqual({
      kind: 'rendezvous',
      options: {
        host: '0.0.0.0',
        port: 8787,
        turnUrls: [],
        turnSecret: undefined,
        logFile: undefined,
        serviceKeyFile: undefined,
        tls: undefined,
        trustedProxies: [],
      },
    });
    expect(
      parse([
        '--rendezvous',
        '0.0.0.0:443',
        '--service-key-file',
        '/var/lib/lp/key',
        '--tls-cert',
        'c.pem',
        '--tls-key',
        'k.pem',
        '--trust-proxy',
        '10.0.0.5, 10.0.0.6',
      ]),
    ).toMatchObject({
      options: {
        serviceKeyFile: '/var/lib/lp/key',
        tls: { certFile: 'c.pem', keyFile: 'k.pem' },
        trustedProxies: ['10.0.0.5', '10.0.0.6'],
      },
    });
    const withTurn = parse(['--rendezvous', '127.0.0.1:0', '--turn-url', 'turn:203.0.113.5:3478, turns:x:5349'], {
      [TURN_SECRET_ENV]: 's',
    });
    expect(withTurn).toMatchObject({
      options: { turnUrls: ['turn:203.0.113.5:3478', 'turns:x:5349'], turnSecret: 's' },
    });
    expect(
      parse(['--rendezvous', '127.0.0.1:0', '--turn-url', 'turn:a:1', '--turn-secret', 'flag'], {
        [TURN_SECRET_ENV]: 'env',
      }),
    ).toMatchObject({ options: { turnSecret: 'flag' } });
    // A script may name the whole network: --bind the listen address, and --no-discovery (none runs in this mode).
    expect(parse(['--rendezvous', '10.9.0.2:8787', '--bind', '10.9.0.2', '--no-discovery'])).toEqual(
      parse(['--rendezvous', '10.9.0.2:8787']),
    );
  });

  it('refuses bad addresses, TURN without a secret, room flags in this mode and TURN flags without it', () => {
    const refused = (argv: string[], pattern: RegExp) => expect(() => parse(argv)).toThrow(pattern);
    refused(['--rendezvous', '8787'], /ipv4:port/);
    refused(['--rendezvous', '300.0.0.1:8787'], /ipv4:port/);
    refused(['--rendezvous', '0.0.0.0:99999'], /0 to 65535/);
    refused(['--rendezvous', '0.0.0.0:8787', '--turn-url', 'turn:a:1'], /shared secret/);
    refused(['--rendezvous', '0.0.0.0:8787', '--turn-secret', 's'], /needs --turn-url/);
    refused(['--rendezvous', '0.0.0.0:8787', '--turn-url', 'http://a', '--turn-secret', 's'], /turn:host:port/);
    refused(['--rendezvous', '0.0.0.0:8787', '--name', 'Friday'], /--name does not apply/);
    refused(['--rendezvous', '0.0.0.0:8787', '--tls-cert', 'c.pem'], /go together/);
    refused(['--rendezvous', '0.0.0.0:8787', '--trust-proxy', 'proxy.example'], /trust-proxy/);
    refused(['--tls-cert', 'c.pem'], /only goes with --rendezvous/);
    refused(['--rendezvous', '0.0.0.0:8787', '--discovery-port', '9998'], /--discovery-port does not apply/);
    refused(['--rendezvous', '10.9.0.2:8787', '--bind', '10.9.0.3'], /name different addresses/);
    refused(['--rendezvous', '10.9.0.2:8787', '--bind', 'localhost'], /--bind: expected an IPv4 address/);
    refused(['--turn-url', 'turn:a:1'], /only goes with --rendezvous/);
    expect(() => parse(['--rendezvous', 'x'])).toThrow(HostCliUsageError);
  });
});

describe('main/cli/hostCli.ts --rendezvous on loopback', () => {
  let running: RunningCli | undefined;
  let data: string | undefined;
  afterEach(async () => {
    running?.kill('SIGKILL');
    await running?.exited;
    running = undefined;
    if (data !== undefined) rmSync(data, { recursive: true, force: true });
    data = undefined;
  });

  it(
    'runs the service with minted TURN credentials; a host registers and a guest joins through it',
    { timeout: CLI_TIMEOUT },
    async () => {
      const secret = 'lab-only-secret';
      // Its data folder (where the service key goes by default) in a temporary folder, not the user's home.
      data = mkdtempSync(join(tmpdir(), 'lp-rdv-cli-'));
      running = runCli('main/cli/hostCli.ts', ['--rendezvous', '127.0.0.1:0', '--turn-url', 'turn:127.0.0.1:3478'], {
        [TURN_SECRET_ENV]: secret,
        XDG_DATA_HOME: data,
        APPDATA: data,
      });
      const cli = running;
      await waitFor(() => /internet rooms on 127\.0\.0\.1:\d+/.test(cli.stdout()), 20_000, 'rendezvous banner');
      const port = /internet rooms on 127\.0\.0\.1:(\d+)/.exec(cli.stdout())?.[1];
      expect(cli.stdout()).toMatch(/shared-secret mode/);
      const url = loopbackRendezvousUrl(Number(port));

      const host = await startRendezvousHost({ url, scheduler: systemScheduler, logger: silentLogger });
      host.onJoinRequest(({ joinId }) => host.answer(joinId, pakeOf('H')));
      const accepted = new Promise<Awaited<ReturnType<typeof host.accept>>>((resolve, reject) =>
        host.onConfirm(({ joinId }) => host.accept(joinId).then(resolve, reject)),
      );

      const guest = await openRendezvousGuest({ url, scheduler: systemScheduler });
      // The service forwards the exchange as it is.
      const answer = await guest.join(host.roomId, pakeOf('G'));
      expect(answer.pake).toBe(pakeOf('H'));
      // The host's accept of the confirmed join is what earns grants: the guest's, and the host's for its session
      // with that guest, each minted for it.
      const guestTurn = await guest.confirm(pakeOf('C'));
      expect(guestTurn?.urls).toEqual(['turn:127.0.0.1:3478']);
      const turn = await accepted;
      expect(turn?.urls).toEqual(['turn:127.0.0.1:3478']);
      expect(guestTurn?.username).not.toBe(turn?.username);
      // coturn's check: password = base64(HMAC-SHA1(secret, username)), username = "<expiry>:<id>".
      expect(turn?.password).toBe(
        createHmac('sha1', secret)
          .update(turn?.username ?? '')
          .digest('base64'),
      );
      expect(Number(turn?.username.split(':')[0])).toBeGreaterThan(Date.now() / 1000);
      guest.close();
      host.close();
      await waitFor(() => /closed by its host/.test(cli.stdout()), 5000, 'host unregistered');

      cli.kill('SIGTERM');
      expect(await cli.exited).toBe(0);
      expect(cli.stdout()).toMatch(/Rendezvous closed/);
    },
  );
});
