import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Channel } from '../../shared/net/channel';

const SCRIPT = fileURLToPath(new URL('./galeReferencePeer.py', import.meta.url));

/** The interpreter itself, resolved once: version-manager shims (pyenv) add seconds to every launch. */
function findPython(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const executable = probe.status === 0 ? probe.stdout.trim() : '';
  return executable === '' ? undefined : executable;
}

const python = findPython();

/** Whether python3 is here to run the gale.net v1 stand-in. */
export const hasPython = python !== undefined;

/** One line the stand-in printed. */
export interface GaleEvent {
  event: string;
  [field: string]: unknown;
}

/** An application message the stand-in received. */
export interface GaleMessage {
  peer: number;
  type: string;
  payload: Record<string, unknown>;
  channel: number;
}

/** The stand-in's counters. `first_bytes`: datagrams received, keyed by their first byte. */
export interface GaleStats {
  datagrams: number;
  dropped: number;
  sent: number;
  first_bytes: Record<string, number>;
  peers: number[];
  rtt: Record<string, number | null>;
}

/**
 * Drives tests/support/galeReferencePeer.py, a gale.net v1 peer written from the wire document, as a
 * server or a client on loopback: commands go to its stdin, its events are collected from stdout.
 */
export class GaleReferencePeer {
  /** Everything the stand-in reported, in order. */
  readonly events: GaleEvent[] = [];
  private stderr = '';
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    /** The stand-in's own UDP port on 127.0.0.1. */
    readonly port: number,
  ) {}

  /** Starts a stand-in server on 127.0.0.1 (a free port, see `port`). */
  static server(options: { maxPeers?: number } = {}): Promise<GaleReferencePeer> {
    const extra = options.maxPeers === undefined ? [] : ['--max-peers', String(options.maxPeers)];
    return GaleReferencePeer.start(['server', ...extra]);
  }

  /** Starts a stand-in client that connects to a loopback server at once. */
  static client(host: string, port: number): Promise<GaleReferencePeer> {
    if (!host.startsWith('127.')) throw new RangeError('the stand-in talks to loopback only');
    return GaleReferencePeer.start(['client', host, String(port)]);
  }

  private static start(args: string[]): Promise<GaleReferencePeer> {
    if (!python) return Promise.reject(new Error('python3 is not available'));
    const child = spawn(python, [SCRIPT, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const events: GaleEvent[] = [];
    let stderr = '';
    let peer: GaleReferencePeer | undefined;
    return new Promise((resolve, reject) => {
      let buffered = '';
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) {
          const event = JSON.parse(line) as GaleEvent;
          (peer?.events ?? events).push(event);
          if (!peer && event.event === 'ready') {
            peer = new GaleReferencePeer(child, event.port as number);
            peer.events.push(...events);
            peer.stderr = stderr;
            resolve(peer);
          }
        }
      });
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (chunk: string) => {
        if (peer) peer.stderr += chunk;
        else stderr += chunk;
      });
      child.once('error', reject);
      child.once('exit', (code) => {
        if (peer) peer.exited = true;
        else reject(new Error(`the stand-in exited early (${code}): ${stderr}`));
      });
    });
  }

  /** Application messages received so far, optionally of one type. */
  messages(type?: string): GaleMessage[] {
    return this.events
      .filter((e) => e.event === 'message' && (type === undefined || e.type === type))
      .map((e) => e as unknown as GaleMessage);
  }

  /** Sends a message on a v1 channel (0–2) to one peer, or to every peer when `peer` is left out. */
  send(type: string, payload: Record<string, unknown>, channel: Channel = 0, peer?: number): void {
    this.command({ cmd: 'send', type, payload, channel, peer });
  }

  /** Tells one peer (or all) `__disconnect__` and forgets it. */
  disconnect(peer?: number): void {
    this.command({ cmd: 'disconnect', peer });
  }

  /** Polls until `pick` returns something; rejects after `timeoutMs`, naming `what` and the stand-in's stderr. */
  async waitFor<T>(pick: () => T | undefined | false, timeoutMs = 5000, what = 'the stand-in'): Promise<T> {
    const start = Date.now();
    for (;;) {
      const value = pick();
      if (value !== undefined && value !== false) return value;
      if (this.exited) throw new Error(`the stand-in exited while waiting for ${what}: ${this.stderr}`);
      if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** The first event named `name` (after `from` events), once it is reported. */
  waitForEvent(name: string, timeoutMs = 5000, from = 0): Promise<GaleEvent> {
    return this.waitFor(() => this.events.slice(from).find((e) => e.event === name), timeoutMs, `event "${name}"`);
  }

  /** Asks the stand-in for its counters. */
  async stats(timeoutMs = 3000): Promise<GaleStats> {
    const from = this.events.length;
    this.command({ cmd: 'stats' });
    return (await this.waitForEvent('stats', timeoutMs, from)) as unknown as GaleStats;
  }

  /** Stops the stand-in (it tells its peers `__disconnect__` first) and waits for it to exit. */
  stop(): Promise<void> {
    if (this.exited || this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin!.end();
      setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
    });
  }

  private command(command: Record<string, unknown>): void {
    this.child.stdin!.write(JSON.stringify(command) + '\n');
  }
}
