import type { ChildProcess } from 'node:child_process';
import type { BenchResult } from './benchResult';
import { rawSubject, transportSubject, type Subject } from './benchSubject';
import { wsSubject } from './peerSubjects';
import { percentile } from './percentile';
import { ECHO_SAMPLES, ECHO_WARMUP, ROUNDS, echoRound, row, startPeer } from './twoProcess';

/** How the section measures, for its heading. */
export const ECHO_APART_METHOD = () =>
  `raw dgram, native+bytes and ws, each with its far side in a process of its own; ${ECHO_WARMUP.toLocaleString('en-US')} round trips of warm-up each, then ${ROUNDS} rounds of ${ECHO_SAMPLES.toLocaleString('en-US')} in turns`;

/**
 * Echo round trips with a far-side process per subject. In the transport section one far-side process serves every
 * subject, and each round trip there wakes the other core; with a process each the scheduler keeps the pair on one
 * core and round trips run ~3× faster, so what each subject's own CPU adds shows undiluted. Both are printed: neither
 * is the only truth of a loopback round trip.
 */
export async function benchEchoApart(): Promise<BenchResult[]> {
  const children: ChildProcess[] = [];
  const subjects: Subject[] = [];
  const farSide = async () => {
    const child = await startPeer();
    children.push(child);
    return child;
  };
  try {
    subjects.push(await rawSubject(await farSide()));
    subjects.push(await transportSubject(await farSide(), 'native+bytes'));
    subjects.push(await wsSubject(await farSide()));
    for (const s of subjects) await s.echo(ECHO_WARMUP);
    const p50 = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
    const p99 = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const rtts = await echoRound(subjects, round);
      for (const s of subjects) {
        p50.get(s.name)!.push(percentile(rtts.get(s)!, 50));
        p99.get(s.name)!.push(percentile(rtts.get(s)!, 99));
      }
    }
    const pair = (label: string, a: string, b: string) => [
      row(`${label}: echo RTT p50`, 'ms', p50.get(a)!, p50.get(b)!, false),
      row(`${label}: echo RTT p99`, 'ms', p99.get(a)!, p99.get(b)!, false),
    ];
    return [
      ...pair('native+bytes vs ws, far sides apart', 'native+bytes', 'ws'),
      ...pair('native+bytes vs raw dgram, far sides apart', 'native+bytes', 'raw dgram'),
      ...pair('ws vs raw dgram, far sides apart', 'ws', 'raw dgram'),
    ];
  } finally {
    for (const s of subjects) await s.close().catch(() => undefined);
    for (const child of children) child.send({ cmd: 'exit' });
  }
}
