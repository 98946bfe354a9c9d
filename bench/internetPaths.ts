import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from './benchResult';
import { median, roundsRow } from './rounds';
import type { LabFigures } from '../tests/support/labIcePeer';
import type { InternetPathsRun } from './internetPathsLab';

const FIGURES_FILE = join(process.cwd(), 'test-output', 'lab', 'internet-path-figures.txt');

/**
 * The relay's cost over real internet paths in the namespace lab (tests/support/labIcePaths.ts: werift-ice, coturn
 * behind a delayed leg, our native Server and Client over the secure socket): a direct pair (endpoint-independent
 * NATs) and a relayed one (symmetric NATs), measured in alternating rounds by bench/internetPathsLab.ts in a process
 * of its own. The relay's added RTT and throughput loss on our stack against the same on bare datagrams over the
 * same ICE sockets (the hop's own cost). Needs root and namespaces: without them the section says why and measures
 * nothing. Was the figures case of tests/lab/internetPaths.test.ts, which keeps the path behaviours.
 */
export async function benchInternetPaths(): Promise<BenchResult[]> {
  const run = await runLab();
  if ('skipped' in run) {
    console.log(`(internet paths skipped: ${run.skipped})`);
    return [];
  }
  const report = formatFigures(run);
  mkdirSync(join(FIGURES_FILE, '..'), { recursive: true });
  writeFileSync(FIGURES_FILE, `${report}\n`);
  console.log(`\n${report}`);
  return relayRows(run.direct, run.relayed);
}

/** Runs the lab process (through tsx, from the project's root) and reads its one JSON line. */
function runLab(): Promise<InternetPathsRun> {
  const script = join(process.cwd(), 'bench', 'internetPathsLab.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`the internet-paths lab exited (${code})`));
      resolve(JSON.parse(line) as InternetPathsRun);
    });
  });
}

/**
 * The relay's added RTT and throughput loss on our stack, each against the same on bare datagrams (the hop's own
 * cost), round by round (round i's direct against round i's relayed); goal: at most 10% over the hop's own cost.
 */
export function relayRows(directRounds: LabFigures[], relayedRounds: LabFigures[]): BenchResult[] {
  const costs = directRounds.map((d, i) => ({
    raw: relayCost(d, relayedRounds[i]!, 'raw'),
    stack: relayCost(d, relayedRounds[i]!, 'stack'),
  }));
  const row = (name: string, unit: string, pick: (c: RelayCost) => number): BenchResult => ({
    ...roundsRow(
      name,
      unit,
      costs.map((c) => pick(c.stack)),
      costs.map((c) => pick(c.raw)),
      false,
    ),
    goal: { kind: 'atMost', bound: 1.1 },
  });
  return [
    row("relay's added RTT, stack (baseline: bare datagrams)", 'ms', (c) => c.addedRttMs),
    row("relay's throughput loss, stack (baseline: bare datagrams)", '', (c) => c.throughputLoss),
  ];
}

function medianFigures(list: LabFigures[]): LabFigures {
  const mid = (pick: (f: LabFigures) => number) => median(list.map(pick));
  return {
    rawRttMs: mid((f) => f.rawRttMs),
    stackRttMs: mid((f) => f.stackRttMs),
    rawBytesPerSecond: mid((f) => f.rawBytesPerSecond),
    stackBytesPerSecond: mid((f) => f.stackBytesPerSecond),
    rawLost: mid((f) => f.rawLost),
    stackRetransmits: mid((f) => f.stackRetransmits),
    windowBytes: mid((f) => f.windowBytes),
  };
}

/** What the relay does to one kind of traffic: RTT it adds (ms) and the share of throughput it takes away. */
interface RelayCost {
  addedRttMs: number;
  throughputLoss: number;
}

function relayCost(direct: LabFigures, relayed: LabFigures, kind: 'raw' | 'stack'): RelayCost {
  const rtt = kind === 'raw' ? (f: LabFigures) => f.rawRttMs : (f: LabFigures) => f.stackRttMs;
  const rate = kind === 'raw' ? (f: LabFigures) => f.rawBytesPerSecond : (f: LabFigures) => f.stackBytesPerSecond;
  return { addedRttMs: rtt(relayed) - rtt(direct), throughputLoss: 1 - rate(relayed) / rate(direct) };
}

const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;

/**
 * The extra hop's own cost is what the relay does to bare datagrams on the same ICE sockets (raw probes: no
 * encryption, no protocol, the same window and no pacing, like the stack); the relay's cost to our stack is
 * stated against it: added RTT (relayed − direct) and throughput loss (1 − relayed/direct), stack over raw.
 * Differences, not ratios, so what the stack costs on every path (encryption, acks) cancels out.
 */
function formatFigures(run: Exclude<InternetPathsRun, { skipped: string }>): string {
  const { setups, legCrossings, direct: directRounds, relayed: relayedRounds, uplinkMs, turnLegMs, pings } = run;
  const direct = medianFigures(directRounds);
  const relayed = medianFigures(relayedRounds);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const mbs = (v: number) => `${(v / 1e6).toFixed(3)} MB/s`;
  const lines = [
    `internet path figures (NAT lab, one run; uplinks ${uplinkMs} ms one way, TURN leg ${turnLegMs} ms each way;`,
    `  RTT = median of ${pings} pings; throughput = ${run.bulkMessages} × 1000 B, window ${direct.windowBytes} B; medians of ${directRounds.length} alternating rounds)`,
  ];
  for (const s of setups) {
    lines.push(
      `  setup ${s.name.padEnd(9)} ${s.kind.padEnd(8)} ${s.pair.padEnd(36)} gather ${s.gatherMs.toFixed(0).padStart(5)} ms, connect ${s.setupMs.toFixed(0).padStart(5)} ms`,
    );
  }
  for (const [name, f] of [
    ['direct', direct],
    ['relayed', relayed],
  ] as const) {
    lines.push(
      `  ${name.padEnd(8)} RTT raw ${ms(f.rawRttMs)}, stack ${ms(f.stackRttMs)}; throughput raw ${mbs(f.rawBytesPerSecond)} (${f.rawLost} lost), stack ${mbs(f.stackBytesPerSecond)} (${f.stackRetransmits} retransmits)`,
    );
  }
  const raw = relayCost(direct, relayed, 'raw');
  const stack = relayCost(direct, relayed, 'stack');
  // The same figure per round (round i's direct against round i's relayed), to show how much it moves.
  const perRound = directRounds.map((d, i) => {
    const r = relayedRounds[i]!;
    const [rw, st] = [relayCost(d, r, 'raw'), relayCost(d, r, 'stack')];
    return { rtt: st.addedRttMs / rw.addedRttMs, tput: st.throughputLoss / rw.throughputLoss };
  });
  const spread = (pick: (p: (typeof perRound)[number]) => number) => {
    const values = perRound.map(pick).sort((a, b) => a - b);
    return `rounds ${pct(values[0]!)} … ${pct(values[values.length - 1]!)}`;
  };
  lines.push(
    `  relay's added RTT: raw ${ms(raw.addedRttMs)} (the hop's own cost; the TURN leg alone is ${legCrossings} × ${turnLegMs} ms), stack ${ms(stack.addedRttMs)}: stack ${pct(stack.addedRttMs / raw.addedRttMs)} over the hop's own cost (goal ≤ +10%; ${spread((p) => p.rtt)})`,
    `  relay's throughput loss: raw ${(raw.throughputLoss * 100).toFixed(1)}%, stack ${(stack.throughputLoss * 100).toFixed(1)}%: stack ${pct(stack.throughputLoss / raw.throughputLoss)} over the hop's own cost (goal ≤ +10%; ${spread((p) => p.tput)})`,
  );
  return lines.join('\n');
}
