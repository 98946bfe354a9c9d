import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LobbyGuest, type LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { waitFor } from '../../support/waitFor';

// `npm run host` stopped the way a terminal stops it: Ctrl-C sends SIGINT to the whole foreground process
// group (npm, the shell, node), and npm forwards it to its child as well. Loopback only, no discovery.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TRIALS = 20;
/**
 * Trials run this many at a time. A trial is ~1 s of CPU (npm, node, tsx) and at least 1 s of waiting (the host
 * waits RELAYED_SIGNAL_MS for npm's copy of the Ctrl-C), so overlapping them cuts the file from ~56 s to a third;
 * each is its own process group and room, and the others are the load it is stopped under.
 */
const AT_ONCE = 4;
const LOOPBACK = ['--bind', '127.0.0.1', '--advertise', '127.0.0.1', '--port', '0', '--no-discovery'];
/** A trial that has not finished by then is killed, so a hung host cannot hang the suite (a start takes 1–6 s). */
const TRIAL_LIMIT_MS = 45_000;

interface Trial {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `npm run host` as the leader of its own process group, as a shell starts a foreground job. */
function startHost(index: number): Trial {
  const child = spawn('npm', ['run', '--silent', 'host', '--', '--name', `Ctrl-C ${index}`, ...LOOPBACK], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LAN_PARTY_PASSWORD: '' },
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, out: () => out, err: () => err, exited };
}

/** Sends `signal` to the whole group; quiet when it is gone already. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // Already exited.
  }
}

const running = new Set<ChildProcess>();
const guests = new Set<LobbyGuest>();
afterEach(async () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
  running.clear();
  for (const guest of guests) await guest.leave();
  guests.clear();
});

describe('npm run host and Ctrl-C', () => {
  it(
    `exits 0 and tells the connected guest the room closed, ${TRIALS} times out of ${TRIALS} under load (${AT_ONCE} at a time)`,
    { timeout: 180_000 },
    async () => {
      const started = Date.now();
      const outcomes: string[] = [];
      const runTrial = async (index: number): Promise<string> => {
        const trial = startHost(index);
        running.add(trial.child);
        const limit = setTimeout(() => signalGroup(trial.child, 'SIGKILL'), TRIAL_LIMIT_MS);
        try {
          await waitFor(() => trial.out().includes('Press Ctrl-C'), 30_000, `room ${index} to open`);
          const port = Number(/^Addresses: 127\.0\.0\.1:(\d+) \(bound\)$/m.exec(trial.out())?.[1]);
          const guest = await LobbyGuest.join({ host: '127.0.0.1', port, playerName: 'Gus', colour: '#22cc88' });
          guests.add(guest);
          const ended = new Promise<LobbyEnd>((resolve) => guest.onEnd(resolve));
          // The load: a chat line every 10 ms, each one logged by the host and sent back to the guest.
          let sent = 0;
          const chatter = setInterval(() => guest.chat(`line ${(sent += 1)}`), 10);
          void ended.then(() => clearInterval(chatter));
          await waitFor(() => trial.out().includes('[chat] Gus: line 5'), 5000, `room ${index} to be busy`);

          signalGroup(trial.child, 'SIGINT');
          const [end, exit] = await Promise.all([ended, trial.exited]);
          clearInterval(chatter);
          expect(end.code, `trial ${index}: the guest was told`).toBe('host-closed');
          expect(exit, `trial ${index}: ${trial.err()}${trial.out().slice(-300)}`).toEqual({ code: 0, signal: null });
          expect(trial.out()).toMatch(/SIGINT: telling the players the room is closing\n.*Room closed\n$/);
          expect(trial.err()).toBe('');
          return `${end.code} ${exit.code ?? exit.signal}`;
        } finally {
          clearTimeout(limit);
          running.delete(trial.child);
        }
      };
      let next = 0;
      const lane = async () => {
        while (next < TRIALS) outcomes.push(await runTrial(next++));
      };
      await Promise.all(Array.from({ length: AT_ONCE }, lane));
      expect(outcomes).toEqual(Array.from({ length: TRIALS }, () => 'host-closed 0'));
      // Reported so a slow machine shows up before the timeout does.
      console.info(
        `[ctrl-c] ${TRIALS} trials, ${AT_ONCE} at a time, in ${Math.round((Date.now() - started) / 100) / 10} s`,
      );
    },
  );
});
