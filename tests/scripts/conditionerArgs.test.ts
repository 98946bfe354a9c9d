import { describe, expect, it } from 'vitest';
import {
  ConditionerUsageError,
  IMPAIRMENT_FLAGS,
  conditionerHelp,
  formatConditionerStats,
  parseConditionerArgs,
} from '../../scripts/conditionerArgs';

const run = (...argv: string[]) => {
  const command = parseConditionerArgs(argv);
  if (command.kind !== 'run') throw new Error('expected a run command');
  return command;
};

const usageError = (...argv: string[]): string => {
  try {
    parseConditionerArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(ConditionerUsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
};

describe('parseConditionerArgs', () => {
  it('recognises --help and -h', () => {
    expect(parseConditionerArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseConditionerArgs(['-h', '--target', 'nonsense'])).toEqual({ kind: 'help' });
  });

  it('fills in defaults around the required target', () => {
    const { options, statsIntervalMs } = run('--target', '127.0.0.1:9000');
    expect(options).toEqual({
      listenHost: '127.0.0.1',
      listenPort: 0,
      target: { host: '127.0.0.1', port: 9000 },
      upstream: {},
      downstream: {},
      seed: 1,
      allowNonLoopback: false,
    });
    expect(statsIntervalMs).toBe(0);
  });

  it('applies shared impairments to both directions and lets up-/down- override them in any order', () => {
    const { options } = run('--up-loss', '0.3', '--target', 'localhost:9000', '--loss=0.1', '--latency', '40');
    expect(options.upstream).toEqual({ loss: 0.3, latencyMs: 40 });
    expect(options.downstream).toEqual({ loss: 0.1, latencyMs: 40 });
  });

  it('maps every impairment flag to its profile field', () => {
    const argv = ['--target', '127.0.0.1:1'];
    for (const [flag] of IMPAIRMENT_FLAGS)
      argv.push(`--down-${flag}`, flag === 'burst-exit' || flag === 'max-backlog' ? '0.5' : '0');
    const { options } = run(...argv);
    expect(Object.keys(options.downstream ?? {}).sort()).toEqual(IMPAIRMENT_FLAGS.map(([, field]) => field).sort());
  });

  it('parses listen, seed, limits and the stats interval', () => {
    const { options, statsIntervalMs } = run(
      '--target',
      '[::1]:9000',
      '--listen',
      '[::1]:9100',
      '--seed',
      '42',
      '--max-mappings',
      '8',
      '--idle-timeout',
      '5000',
      '--stats-interval',
      '1000',
    );
    expect(options).toMatchObject({
      listenHost: '::1',
      listenPort: 9100,
      target: { host: '::1', port: 9000 },
      seed: 42,
      maxMappings: 8,
      idleTimeoutMs: 5000,
    });
    expect(statsIntervalMs).toBe(1000);
    expect(run('--target', '127.0.0.1:1', '--listen', '9100').options.listenPort).toBe(9100);
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [[], /--target <host:port> is required/],
    [['--target', '9000'], /--target: expected <host:port>, got "9000"/],
    [['--target', '127.0.0.1:x'], /--target: expected <host:port>/],
    [['--target', '::1:9000'], /put an IPv6 address in brackets/],
    [['--target', '127.0.0.1:70000'], /--target: expected an integer from 1 to 65535, got 70000/],
    [['--target', 'example.com:9000'], /IP address or 'localhost'/],
    [['--target', '10.1.2.3:9000'], /--target: 10\.1\.2\.3 is not a loopback address; add --allow-non-loopback/],
    [['--target', '127.0.0.1:1', '--listen', '0.0.0.0:9100'], /--listen: 0\.0\.0\.0 is not a loopback address/],
    [['--target', '127.0.0.1:1', '--loss', 'lots'], /--loss: expected a number, got "lots"/],
    [['--target', '127.0.0.1:1', '--loss', ''], /--loss: expected a number, got ""/],
    [['--target', '127.0.0.1:1', '--down-loss', '1.5'], /--down-loss: must be between 0 and 1, got 1.5/],
    [['--target', '127.0.0.1:1', '--burst-exit', '0'], /--burst-exit: must be greater than 0/],
    [['--target', '127.0.0.1:1', '--seed', '1.5'], /--seed: expected an integer/],
    [['--target', '127.0.0.1:1', '--stats-interval', '-1'], /--stats-interval/],
    [['--target', '127.0.0.1:1', 'stray'], /Unexpected argument 'stray'/],
  ])('rejects %j', (argv, message) => {
    expect(usageError(...argv)).toMatch(message);
  });

  it('permits non-loopback addresses only with --allow-non-loopback', () => {
    const { options } = run('--target', '10.1.2.3:9000', '--allow-non-loopback');
    expect(options).toMatchObject({ target: { host: '10.1.2.3', port: 9000 }, allowNonLoopback: true });
  });
});

describe('conditionerHelp', () => {
  it('documents every flag', () => {
    const help = conditionerHelp();
    for (const [flag] of IMPAIRMENT_FLAGS) expect(help).toContain(`--${flag} `);
    for (const flag of [
      '--target',
      '--listen',
      '--seed',
      '--stats-interval',
      '--max-mappings',
      '--idle-timeout',
      '--allow-non-loopback',
      '--help',
    ]) {
      expect(help).toContain(flag);
    }
    expect(help).toMatch(/up- for client→server or down- for/);
  });
});

describe('formatConditionerStats', () => {
  it('prints counters per direction with non-zero drop reasons', () => {
    const direction = {
      received: 10,
      receivedBytes: 100,
      forwarded: 8,
      forwardedBytes: 80,
      dropped: 2,
      drops: { loss: 1, burst: 0, backlog: 0, overflow: 0, unroutable: 1 },
      duplicated: 0,
      reordered: 3,
      queued: 0,
    };
    const text = formatConditionerStats({
      upstream: direction,
      downstream: { ...direction, dropped: 0, drops: { ...direction.drops, loss: 0, unroutable: 0 } },
      mappings: 2,
      strays: 0,
      errors: 0,
    });
    expect(text.split('\n')).toEqual([
      'upstream  : received 10 (100 B), forwarded 8 (80 B), dropped 2 (loss 1, unroutable 1), duplicated 0, reordered 3, queued 0',
      'downstream: received 10 (100 B), forwarded 8 (80 B), dropped 0, duplicated 0, reordered 3, queued 0',
      'clients: 2, strays: 0, socket errors: 0',
    ]);
  });
});
