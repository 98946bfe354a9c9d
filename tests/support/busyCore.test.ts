import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { busyProjects, startBusyCore, type BusyCore } from './busyCore';
import { waitFor } from './waitFor';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The process's user CPU time in clock ticks, from /proc (Linux, as this suite's machines are). */
const cpuTicks = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[11]);

const started: BusyCore[] = [];
afterEach(async () => {
  for (const busy of started.splice(0)) await busy.stop();
});

describe('busyCore', () => {
  it('spins until stopped, then is gone', async () => {
    const busy = startBusyCore();
    started.push(busy);
    const before = cpuTicks(busy.pid);
    // It burns CPU: the tick counter moves (how fast is the machine's business, so no rate is asserted).
    await waitFor(() => cpuTicks(busy.pid) > before + 5, 10_000, 'the spinner to use CPU');
    await busy.stop();
    expect(alive(busy.pid)).toBe(false);
    await busy.stop(); // twice is harmless
  });

  it('ends by itself at its deadline', async () => {
    const busy = startBusyCore(200);
    started.push(busy);
    await waitFor(() => !alive(busy.pid), 10_000, 'the spinner to reach its deadline');
  });

  it('ends when the process that started it is killed', async () => {
    // A parent that starts a spinner, says its pid and waits; SIGKILL leaves it no chance to clean up.
    const parent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "console.log(require('./tests/support/busyCore.ts').startBusyCore().pid); setInterval(() => {}, 1000);",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const pid = await new Promise<number>((resolve) =>
        createInterface({ input: parent.stdout! }).once('line', (line) => resolve(Number(line))),
      );
      expect(alive(pid)).toBe(true);
      parent.kill('SIGKILL');
      await waitFor(() => !alive(pid), 10_000, 'the orphaned spinner to end');
    } finally {
      parent.kill('SIGKILL');
    }
  }, 20_000);

  it('parses LAN_PARTY_BUSY', () => {
    expect(busyProjects(undefined)).toEqual(new Set());
    expect(busyProjects('0')).toEqual(new Set());
    expect(busyProjects('1')).toBe('all');
    expect(busyProjects('all')).toBe('all');
    expect(busyProjects(' lab, e2e ,')).toEqual(new Set(['lab', 'e2e']));
  });
});
