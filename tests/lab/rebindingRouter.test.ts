import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import { RebindableRouter, rebindUnavailableReason } from '../support/natLabRebind';
import { waitFor } from '../support/waitFor';

// The lab's router moves (tests/support/natLabRebind.ts) seen from outside: a UDP flow from a player behind each
// kind of router to two echo ports on the public side, which answer with the source they saw. After a port move
// and after a WAN address move the flow's public source is another one, the old mappings are gone, and an
// endpoint-independent router still shows one socket as one public port to every destination.
const skip = natLabUnavailableReason() ?? rebindUnavailableReason();

const ECHO = `const s=require('node:dgram').createSocket('udp4');
s.on('message',(m,r)=>s.send(r.address+':'+r.port,r.port,r.address));s.bind(+process.argv[1],process.argv[2],()=>console.log('up'));`;
// One socket, a datagram every 50 ms to each echo port (bounded: 2 minutes at most); prints "port seen-source".
const FLOW = `const s=require('node:dgram').createSocket('udp4');const [to,a,b]=process.argv.slice(1);
s.on('message',(m,r)=>console.log(r.port+' '+m));let n=0;
const t=setInterval(()=>{if(++n>2400)return clearInterval(t);s.send('x',+a,to);s.send('x',+b,to);},50);`;

let lab: NatLab;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (skip) return;
  lab = await createNatLab({
    routers: { eim: 'endpoint-independent', sym: 'symmetric' },
    players: { e: { router: 'eim' }, s: { router: 'sym' }, echo: 'public' },
  });
  for (const port of [7001, 7002]) {
    const echo = lab.spawnIn('echo', process.execPath, ['-e', ECHO, String(port), lab.addresses.echo!]);
    children.push(echo);
    await new Promise<void>((resolve) => echo.stdout!.once('data', () => resolve()));
  }
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await lab?.destroy();
});

/** A flow from `player`: the latest public source each echo port saw. */
function flowFrom(player: string) {
  const child = lab.spawnIn(player, process.execPath, ['-e', FLOW, lab.addresses.echo!, '7001', '7002']);
  children.push(child);
  const seen = new Map<number, string>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const [port, source] = line.split(' ');
    seen.set(Number(port), source!);
  });
  return {
    seen: () => [seen.get(7001), seen.get(7002)] as const,
    /** Waits until both ports report a source that none of `old` is, and returns them. */
    async movedFrom(old: readonly (string | undefined)[], what: string) {
      await waitFor(() => seen.size === 2 && [...seen.values()].every((s) => !old.includes(s)), 10_000, what);
      return [seen.get(7001)!, seen.get(7002)!] as const;
    },
  };
}

const portOf = (source: string) => Number(source.split(':')[1]);
const addressOf = (source: string) => source.split(':')[0];
/** An address as a conntrack line names it (src=… / dst=…), whole. */
const mentions = (address: string) => new RegExp(`=${address.replaceAll('.', '\\.')}\\s`);

describe.skipIf(skip)('lab routers that move their mappings', () => {
  it('endpoint-independent: a new port per move, the same one to every destination; then a new WAN address', async () => {
    const router = new RebindableRouter(lab, 'eim');
    const flow = flowFrom('e');
    const first = await flow.movedFrom([undefined], 'the first mapping');
    expect(first[0]).toBe(first[1]);
    expect(addressOf(first[0])).toBe(lab.wan.eim);

    router.movePorts();
    const second = await flow.movedFrom(first, 'a new public port after the port move');
    expect(second[0]).toBe(second[1]);
    expect(addressOf(second[0])).toBe(lab.wan.eim);
    expect(portOf(second[0])).not.toBe(portOf(first[0]));

    router.moveAddress('203.0.113.111');
    const third = await flow.movedFrom(second, 'the new WAN address');
    expect(third[0]).toBe(third[1]);
    expect(third[0]).toBe(`203.0.113.111:${portOf(second[0])}`);
    expect(router.mappings()).not.toMatch(mentions(lab.wan.eim!));
    console.log(`[lab rebind] endpoint-independent: ${first[0]} → ${second[0]} → ${third[0]}`);
  }, 60_000);

  it('symmetric: new ports from a new range; then a new WAN address', async () => {
    const router = new RebindableRouter(lab, 'sym');
    const flow = flowFrom('s');
    const first = await flow.movedFrom([undefined], 'the first mappings');
    expect(first[0]).not.toBe(first[1]);

    router.movePorts();
    const second = await flow.movedFrom(first, 'new public ports after the port move');
    for (const source of second) {
      expect(addressOf(source)).toBe(lab.wan.sym);
      expect(portOf(source)).toBeGreaterThanOrEqual(20_000);
      expect(portOf(source)).toBeLessThanOrEqual(29_999);
    }

    router.moveAddress('203.0.113.112');
    const third = await flow.movedFrom(second, 'the new WAN address');
    for (const source of third) expect(addressOf(source)).toBe('203.0.113.112');
    expect(router.mappings()).not.toMatch(mentions(lab.wan.sym!));
    console.log(`[lab rebind] symmetric: ${first.join(' ')} → ${second.join(' ')} → ${third.join(' ')}`);
  }, 60_000);
});
