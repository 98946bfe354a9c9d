import { describe, expect, it } from 'vitest';
import {
  HostCliUsageError,
  MAX_GUESTS,
  PASSWORD_ENV,
  hostCliHelp,
  parseHostCliArgs,
  type HostCliOptions,
} from '../../../main/cli/hostCliArgs';

const parse = (argv: string[], env: Record<string, string | undefined> = {}) => parseHostCliArgs(argv, env, 'den-pc');
const run = (argv: string[], env: Record<string, string | undefined> = {}): HostCliOptions => {
  const command = parse(argv, env);
  if (command.kind !== 'run') throw new Error('expected a run command');
  return command.options;
};
const usage = (argv: string[]) => {
  try {
    parse(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(HostCliUsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('parseHostCliArgs', () => {
  it('has defaults for everything', () => {
    expect(run([])).toEqual({
      name: 'LAN Party @ den-pc',
      port: 9000,
      maxPlayers: 8,
      password: undefined,
      discoveryPort: 9998,
      announce: true,
      bindAddress: '0.0.0.0',
      advertiseAddress: undefined,
      logFile: undefined,
      seatGraceSec: 30,
    });
  });

  it('reads every flag', () => {
    expect(
      run([
        '--name',
        'Friday LAN',
        '--port',
        '9100',
        '--max-players',
        '12',
        '--password',
        'hunter2',
        '--discovery-port',
        '0',
        '--no-announce',
        '--bind',
        '127.0.0.1',
        '--advertise',
        '192.168.1.20',
        '--log-file',
        'logs/host.log',
      ]),
    ).toEqual({
      name: 'Friday LAN',
      port: 9100,
      maxPlayers: 12,
      password: 'hunter2',
      discoveryPort: 0,
      announce: false,
      bindAddress: '127.0.0.1',
      advertiseAddress: '192.168.1.20',
      logFile: 'logs/host.log',
      seatGraceSec: 30,
    });
  });

  it('--no-discovery turns discovery and announcements off', () => {
    expect(run(['--no-discovery'])).toMatchObject({ discoveryPort: null, announce: false });
  });

  it('takes the password from the environment unless given on the command line', () => {
    expect(run([], { [PASSWORD_ENV]: 'from-env' }).password).toBe('from-env');
    expect(run(['--password', 'flag'], { [PASSWORD_ENV]: 'from-env' }).password).toBe('flag');
    expect(run([], { [PASSWORD_ENV]: '' }).password).toBeUndefined();
  });

  it('cleans the room name and cuts a long default to 64 characters', () => {
    expect(run(['--name', '  Friday\u202e LAN  ']).name).toBe('Friday LAN');
    const long = parseHostCliArgs([], {}, 'x'.repeat(100));
    expect(long.kind === 'run' && Array.from(long.options.name).length).toBe(64);
  });

  it('--help wins over everything else', () => {
    expect(parse(['--port', '1', '--help'])).toEqual({ kind: 'help' });
    expect(parse(['-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port'], /--port/],
    [['--port', '70000'], /--port: expected a whole number from 0 to 65535, got "70000"/],
    [['--port', '9.5'], /--port: expected a whole number/],
    [['--port', '-1'], /--port/],
    [['--max-players', '0'], new RegExp(`--max-players: expected a whole number from 1 to ${MAX_GUESTS}`)],
    [['--max-players', '16'], /--max-players/],
    [['--bind', 'localhost'], /--bind: expected an IPv4 address like 192\.168\.1\.20, got "localhost"/],
    [['--advertise', '0.0.0.0'], /--advertise: 0\.0\.0\.0 cannot be joined/],
    [['--advertise', '010.0.0.1'], /--advertise: expected an IPv4 address/],
    [['--name', '   '], /--name: the room name is empty/],
    [['--name', 'n'.repeat(65)], /--name: at most 64 characters, got 65/],
    [['--password', 'p'.repeat(129)], /--password: 1 to 128 characters/],
    [['--no-discovery', '--discovery-port', '9998'], /contradict/],
    [['--port', '9998'], /--port and --discovery-port must differ \(both 9998\)/],
    [['--log-file', ' '], /--log-file: the path is empty/],
    [['--log-file'], /--log-file/],
    [['extra'], /extra/],
  ])('rejects %j', (argv, message) => {
    expect(usage(argv)).toMatch(message);
  });

  it('opens an internet room with --reach internet and a ws:// or wss:// rendezvous', () => {
    expect(run(['--reach', 'internet', '--rendezvous', 'wss://rdv.example.org/rendezvous/v1'])).toMatchObject({
      internet: { rendezvousUrl: 'wss://rdv.example.org/rendezvous/v1' },
      discoveryPort: 9998,
    });
    expect(run(['--reach', 'internet', '--rendezvous', ' ws://10.0.0.1:8787/rendezvous/v1 ']).internet).toEqual({
      rendezvousUrl: 'ws://10.0.0.1:8787/rendezvous/v1',
    });
    // No rendezvous: the router's port mapping alone.
    expect(run(['--reach', 'internet']).internet).toEqual({ rendezvousUrl: undefined });
    // --reach lan (the default) is a LAN room only.
    expect(run(['--reach', 'lan']).internet).toBeUndefined();
    expect(run([]).internet).toBeUndefined();
    // --rendezvous ipv4:port alone still runs the rendezvous service.
    expect(parse(['--rendezvous', '0.0.0.0:8787']).kind).toBe('rendezvous');
  });

  it('asks the default gateway for a port mapping, or the --router-gateway given; --no-port-mapping turns it off', () => {
    expect(run(['--reach', 'internet']).internet?.routerGateways).toBeUndefined();
    expect(run(['--reach', 'internet', '--router-gateway', '192.168.77.1']).internet).toEqual({
      rendezvousUrl: undefined,
      routerGateways: ['192.168.77.1'],
    });
    const url = 'wss://rdv.example.org/rendezvous/v1';
    expect(run(['--reach', 'internet', '--rendezvous', url, '--no-port-mapping']).internet).toEqual({
      rendezvousUrl: url,
      routerGateways: [],
    });
    // Without a rendezvous, the DHT opens the room when the router maps nothing.
    expect(run(['--reach', 'internet', '--no-port-mapping']).internet).toEqual({
      rendezvousUrl: undefined,
      routerGateways: [],
    });
    expect(usage(['--reach', 'internet', '--no-port-mapping', '--no-dht'])).toMatch(
      /--no-port-mapping with --no-dht needs --rendezvous/,
    );
    expect(usage(['--reach', 'internet', '--router-gateway', 'router'])).toMatch(/--router-gateway: expected an IPv4/);
    expect(usage(['--reach', 'internet', '--router-gateway', '10.0.0.1', '--no-port-mapping'])).toMatch(/contradict/);
    expect(usage(['--router-gateway', '10.0.0.1'])).toMatch(/--router-gateway only goes with --reach internet/);
    expect(usage(['--no-port-mapping'])).toMatch(/--no-port-mapping only goes with --reach internet/);
    expect(usage(['--rendezvous', '0.0.0.0:8787', '--no-port-mapping'])).toMatch(/does not apply/);
  });

  it('meets guests on the public DHT, or on the --dht-bootstrap nodes given; --no-dht turns it off', () => {
    expect(run(['--reach', 'internet']).internet?.dhtBootstrap).toBeUndefined();
    expect(run(['--reach', 'internet', '--dht-bootstrap', '203.0.113.10:49737']).internet?.dhtBootstrap).toEqual([
      '203.0.113.10:49737',
    ]);
    expect(
      run(['--reach', 'internet', '--dht-bootstrap', '203.0.113.10:49737, dht.example.org:1,[::1]:2']).internet
        ?.dhtBootstrap,
    ).toEqual(['203.0.113.10:49737', 'dht.example.org:1', '[::1]:2']);
    expect(run(['--reach', 'internet', '--no-dht']).internet?.dhtBootstrap).toEqual([]);
    expect(usage(['--reach', 'internet', '--dht-bootstrap', '203.0.113.10'])).toMatch(
      /--dht-bootstrap: Give host:port/,
    );
    expect(usage(['--reach', 'internet', '--dht-bootstrap', '203.0.113.10:0'])).toMatch(/1–65535/);
    expect(usage(['--reach', 'internet', '--dht-bootstrap', Array(17).fill('a:1').join(',')])).toMatch(/at most 16/);
    expect(usage(['--reach', 'internet', '--dht-bootstrap', 'a:1', '--no-dht'])).toMatch(/contradict/);
    expect(usage(['--dht-bootstrap', 'a:1'])).toMatch(/--dht-bootstrap only goes with --reach internet/);
    expect(usage(['--no-dht'])).toMatch(/--no-dht only goes with --reach internet/);
    expect(usage(['--rendezvous', '0.0.0.0:8787', '--no-dht'])).toMatch(/does not apply/);
  });

  it('takes --seat-grace from 0 to 600 seconds', () => {
    expect(run(['--seat-grace', '0']).seatGraceSec).toBe(0);
    expect(run(['--seat-grace', '600']).seatGraceSec).toBe(600);
  });

  it.each([
    [['--reach', 'wan'], /--reach: expected lan or internet, got "wan"/],
    [
      ['--reach', 'internet', '--rendezvous', 'http://rdv.example.org'],
      /--rendezvous: Give a ws:\/\/ or wss:\/\/ address/,
    ],
    [['--reach', 'internet', '--rendezvous', 'wss://rdv.example.org/v1?x=1'], /--rendezvous: No query or fragment/],
    [
      ['--reach', 'internet', '--rendezvous', 'ws://rdv.example.org:8787/rendezvous/v1'],
      /--rendezvous: Use wss:\/\/ for this rendezvous: plain ws:\/\/ would send the room’s secret/,
    ],
    [['--reach', 'internet', '--rendezvous', '0.0.0.0:8787'], /--rendezvous: Give a ws:\/\/ or wss:\/\/ address/],
    [['--rendezvous', 'wss://rdv.example.org/rendezvous/v1'], /goes with --reach internet/],
    [['--reach', 'lan', '--rendezvous', '0.0.0.0:8787'], /--reach does not apply/],
    [
      ['--reach', 'internet', '--rendezvous', 'ws://10.0.0.1:8787', '--turn-url', 'turn:10.0.0.1:3478'],
      /--turn-url does not apply to a room: it gets TURN credentials from its rendezvous/,
    ],
    [['--seat-grace', '601'], /--seat-grace: expected a whole number from 0 to 600, got "601"/],
    [['--seat-grace', '1.5'], /--seat-grace: expected a whole number/],
    [['--rendezvous', '0.0.0.0:8787', '--seat-grace', '10'], /--seat-grace does not apply/],
  ])('rejects %j', (argv, message) => {
    expect(usage(argv)).toMatch(message);
  });

  it('lets --port 0 and --discovery-port 0 both pick free ports', () => {
    expect(run(['--port', '0', '--discovery-port', '0'])).toMatchObject({ port: 0, discoveryPort: 0 });
  });
});

describe('hostCliHelp', () => {
  it('explains every flag', () => {
    const help = hostCliHelp();
    for (const flag of [
      '--name <text>',
      '--port <n>',
      '--max-players <n>',
      '--password <text>',
      '--discovery-port <n>',
      '--no-discovery',
      '--no-announce',
      '--bind <ipv4>',
      '--advertise <ipv4>',
      '--log-file <path>',
      '--seat-grace <s>',
      '--reach <lan|internet>',
      '--rendezvous <url>',
      '--rendezvous <ipv4:port>',
      '-h, --help',
    ]) {
      expect(help).toContain(flag);
    }
    expect(help).toMatch(/Exit codes: 0 closed normally, 1 could not open the room, 2 bad command line/);
    expect(help).toContain('--reach internet --rendezvous wss://rdv.example.org/rendezvous/v1');
  });

  it('says what --max-players counts for a host that does not play', () => {
    const help = hostCliHelp();
    expect(help).toMatch(/--max-players <n> +players who can join, 1–15 \(default 8\); the host itself takes no seat/);
    expect(help).toContain('--max-players 4 lets four players in');
    expect(help).toContain('LAN server lists ("2/4")');
  });
});
