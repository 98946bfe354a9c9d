import { cpus } from 'node:os';
import { benchConditioner } from './conditioner';
import { benchLabLatency } from './labLatency';
import { benchLabServerCpu } from './labServerCpu';
import type { BenchResult } from './benchResult';
import { benchGameHost } from './gameHost';
import { TWO_PROCESS_METHOD, benchTwoProcess } from './twoProcess';
import { codecBench } from './codec';
import { againstV1 } from './againstV1';
import { formatRatio, perRoundRatios } from './rounds';
import { formatGoal } from './goal';

// One command (`npm run bench`): every benchmark, each printed against a baseline measured in this same run.
// The sections that drive Chromium or whole backends load their modules when they run: loaded up front, Playwright
// and the backend alone added ~30 MB to this process's heap, whose major GCs then landed in the transport's windows.

function format(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(3);
}

function print(section: string, results: BenchResult[], baselineLabel = 'raw dgram baseline'): void {
  console.log(`\n## ${section}`);
  console.log(`| measure | value | ${baselineLabel} | ratio | goal |`);
  console.log('|---|---|---|---|---|');
  for (const r of results) {
    // Alternating rounds: the median of per-round ratios (with min–max), not the ratio of medians.
    const ratio = r.rounds
      ? formatRatio(perRoundRatios(r.rounds.value, r.rounds.baseline))
      : r.baseline
        ? `${(r.value / r.baseline).toFixed(2)}×`
        : '—';
    const base = r.baseline !== undefined ? `${format(r.baseline)} ${r.unit}` : '—';
    console.log(`| ${r.name} | ${format(r.value)} ${r.unit} | ${base} | ${ratio} | ${formatGoal(r)} |`);
  }
}

/** Every section: a short key (for `--only`), its heading, its baseline label and how to measure it. */
const SECTIONS: {
  key: string;
  title: string;
  baseline?: string;
  measure: (state: Shared) => Promise<BenchResult[]>;
}[] = [
  {
    key: 'transport',
    title: `transport (gale.net v1, native) and peers (ws, ENet) vs raw dgram, two processes, 100-byte reliable ordered messages; ${TWO_PROCESS_METHOD()}`,
    measure: async (state) => (state.transport = await benchTwoProcess()),
  },
  {
    key: 'againstV1',
    title: 'native vs gale.net v1, same run',
    baseline: 'gale.net v1',
    measure: async (state) => againstV1(state.transport ?? (state.transport = await benchTwoProcess())),
  },
  {
    key: 'codec',
    title: 'binary codec vs JSON, 20-entity snapshot (one process)',
    baseline: 'reference JSON',
    measure: codecBench,
  },
  {
    key: 'conditioner',
    title: 'link conditioner (impairments off) vs raw dgram (one process)',
    measure: benchConditioner,
  },
  {
    key: 'latency',
    title: 'reliable delivery latency, one way, through the link conditioner (20 ms each way)',
    baseline: 'same with 0% loss',
    measure: benchLabLatency,
  },
  {
    key: 'serverCpu',
    title: 'server CPU, 60 Hz snapshots to 64 clients in a second process',
    measure: benchLabServerCpu,
  },
  {
    key: 'joinFlood',
    title: 'joining a server under a 1,024-source connect flood (one process, flood on a worker thread)',
    baseline: 'same without the flood',
    measure: async () => (await import('./joinUnderFlood')).benchJoinUnderFlood(),
  },
  {
    key: 'gameHost',
    title: 'game host tick cost per player vs pure step() (one process, no sockets)',
    baseline: 'pure step() baseline',
    measure: benchGameHost,
  },
  {
    key: 'render',
    title: 'render loop in headless Chromium, 16 players vs empty arena',
    baseline: 'empty arena loop',
    measure: async () => (await import('./renderFrame')).benchRenderFrame(),
  },
  {
    key: 'keyToPixel',
    title:
      'key to pixel: keydown on one page → that player drawn ≥ 1 px away on the other page and its own, two Chromium pages on two backends (loopback)',
    baseline: 'old fixed delays (interp=fixed), same run',
    measure: async () => (await import('./keyToPixel/keyToPixel')).benchKeyToPixel(),
  },
  {
    key: 'internetPaths',
    title:
      "internet paths in the namespace lab (root): the relay's cost to our stack vs to bare datagrams, direct and relayed ICE pairs, alternating rounds",
    baseline: 'bare datagrams, same sockets',
    measure: async () => (await import('./internetPaths')).benchInternetPaths(),
  },
];

interface Shared {
  transport?: BenchResult[];
}

/** `--only a,b` (or BENCH_ONLY=a,b): run just those sections, e.g. to repeat one while tuning it. */
function selectedKeys(argv: string[]): Set<string> | undefined {
  const flag = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  const list =
    flag >= 0 ? (argv[flag]!.includes('=') ? argv[flag]!.split('=')[1] : argv[flag + 1]) : process.env.BENCH_ONLY;
  if (!list) return undefined;
  const keys = new Set(
    list
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  );
  const unknown = [...keys].filter((k) => !SECTIONS.some((s) => s.key === k));
  if (unknown.length)
    throw new Error(`unknown bench section(s) ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.key).join(', ')}`);
  return keys;
}

async function main(): Promise<void> {
  const cpu = cpus();
  const only = selectedKeys(process.argv.slice(2));
  // The machine goes first: ratios are only comparable between runs on the same kind of machine.
  console.log(
    `LAN Party benchmarks — ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, node ${process.version}, loopback 127.0.0.1`,
  );
  const state: Shared = {};
  for (const section of SECTIONS) {
    if (only && !only.has(section.key)) continue;
    print(section.title, await section.measure(state), section.baseline);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
