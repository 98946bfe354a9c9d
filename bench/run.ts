import { cpus } from 'node:os';
import { benchConditioner } from './conditioner';
import { benchLabLatency } from './labLatency';
import { benchLabServerCpu } from './labServerCpu';
import type { BenchResult } from './benchResult';
import { benchGameHost } from './gameHost';
import { benchRenderFrame } from './renderFrame';
import { benchTwoProcess } from './twoProcess';
import { codecBench } from './codec';
import { againstV1 } from './againstV1';

// One command (`npm run bench`): every benchmark, each printed against a baseline measured in this same run.

function format(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(3);
}

function print(section: string, results: BenchResult[], baselineLabel = 'raw dgram baseline'): void {
  console.log(`\n## ${section}`);
  console.log(`| measure | value | ${baselineLabel} | ratio |`);
  console.log('|---|---|---|---|');
  for (const r of results) {
    const ratio = r.baseline ? `${(r.value / r.baseline).toFixed(2)}×` : '—';
    const base = r.baseline !== undefined ? `${format(r.baseline)} ${r.unit}` : '—';
    console.log(`| ${r.name} | ${format(r.value)} ${r.unit} | ${base} | ${ratio} |`);
  }
}

async function main(): Promise<void> {
  const cpu = cpus();
  // The machine goes first: ratios are only comparable between runs on the same kind of machine.
  console.log(
    `LAN Party benchmarks — ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, node ${process.version}, loopback 127.0.0.1`,
  );
  const transport = await benchTwoProcess();
  print('transport, gale.net v1 and native, vs raw dgram (two processes)', transport);
  print('native vs gale.net v1, same run', againstV1(transport), 'gale.net v1');
  print('binary codec vs JSON, 20-entity snapshot (one process)', await codecBench(), 'reference JSON');
  print('link conditioner (impairments off) vs raw dgram (one process)', await benchConditioner());
  print(
    'reliable delivery latency, one way, through the link conditioner (20 ms each way)',
    await benchLabLatency(),
    'same with 0% loss',
  );
  print('server CPU, 60 Hz snapshots to 64 clients in a second process', await benchLabServerCpu());
  print(
    'game host tick cost per player vs pure step() (one process, no sockets)',
    await benchGameHost(),
    'pure step() baseline',
  );
  print('render loop in headless Chromium, 16 players vs empty arena', await benchRenderFrame(), 'empty arena loop');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
