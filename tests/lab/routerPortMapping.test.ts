import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { netnsUnavailableReason } from '../support/netns';
import { requireMiniupnpd, createMiniupnpdLab, type LabAgent, type MiniupnpdLab } from '../support/miniupnpdLab';

// The router port mapper against a real miniupnpd (Debian's nftables build) in a home-router namespace: each
// protocol maps, the mapping is in the router's nftables while open and gone after close() or after the next start
// that follows a kill -9, and a datagram from the public side reaches the room's socket. Then a router that maps
// nothing ('no-router' within 3 s) and one whose STUN-learned WAN address is CGNAT.
const skip = netnsUnavailableReason();
const agents: LabAgent[] = [];

beforeAll(() => {
  if (!skip) requireMiniupnpd();
});

afterAll(() => {
  for (const agent of agents) agent.child.kill('SIGKILL');
});

async function lanAgent(lab: MiniupnpdLab): Promise<LabAgent> {
  const agent = await lab.agent('lan');
  agents.push(agent);
  return agent;
}

interface MappedEvent {
  ok: boolean;
  mapping?: { protocol: string; externalAddress: string; externalPort: number; internalPort: number };
  failure?: { kind: string; externalAddress?: string };
}

describe.skipIf(skip)('a home router running miniupnpd', () => {
  let lab: MiniupnpdLab;
  beforeAll(async () => {
    lab = await createMiniupnpdLab({ miniupnpd: true });
  }, 30_000);
  afterAll(async () => lab?.destroy());

  const protocols = ['nat-pmp', 'pcp', 'upnp'] as const;
  protocols.forEach((protocol, i) => {
    it(`${protocol}: maps the room's port, the public side reaches it, close() removes it from the router`, async () => {
      const internalPort = 40_100 + i;
      const agent = await lanAgent(lab);
      agent.send({ cmd: 'map', internalPort, protocol, recordFile: join(lab.dir, `record-${protocol}.json`) });
      const result = (await agent.next('mapped')).result as MappedEvent;
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const mapping = result.mapping!;
      expect(mapping).toMatchObject({ protocol, externalAddress: lab.routerWan, internalPort });
      const rule = new RegExp(`dport ${mapping.externalPort} .*dnat ip to ${lab.lanAddress}:${internalPort}`);
      expect(lab.mappingChain()).toMatch(rule);

      const outside = await lab.agent('pub');
      agents.push(outside);
      outside.send({ cmd: 'send', host: lab.routerWan, port: mapping.externalPort, text: `hello over ${protocol}` });
      const got = await agent.next('got', 5_000);
      expect(got.text).toBe(`hello over ${protocol}`);
      expect(got.from.startsWith('203.0.113.2:')).toBe(true);

      agent.send({ cmd: 'close' });
      await agent.next('closed');
      expect(lab.mappingChain()).not.toMatch(rule);
    });
  });

  it('after a kill -9 of the process holding a mapping, the next start removes it', async () => {
    const recordFile = join(lab.dir, 'record-crash.json');
    const internalPort = 40_200;
    const first = await lanAgent(lab);
    first.send({ cmd: 'map', internalPort, protocol: 'upnp', recordFile });
    const result = (await first.next('mapped')).result as MappedEvent;
    expect(result.ok, JSON.stringify(result)).toBe(true);
    const rule = new RegExp(`dport ${result.mapping!.externalPort} .*dnat ip to ${lab.lanAddress}:${internalPort}`);
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    // `ip netns exec` execs node itself, so the signal reaches the process holding the mapping.
    first.child.kill('SIGKILL');
    await exited;
    expect(lab.mappingChain()).toMatch(rule);

    const next = await lanAgent(lab);
    next.send({ cmd: 'cleanup', recordFile });
    expect((await next.next('cleaned')).removed).toBe(1);
    expect(lab.mappingChain()).not.toMatch(rule);
  });

  it('the network check sees every protocol and the external address', async () => {
    const agent = await lanAgent(lab);
    agent.send({ cmd: 'probe' });
    const probed = await agent.next('probed');
    expect(probed.report).toEqual({
      gateway: '192.168.77.1',
      offers: ['nat-pmp', 'pcp', 'upnp'],
      externalAddress: lab.routerWan,
    });
  });
});

describe.skipIf(skip)('a home router that maps nothing', () => {
  let lab: MiniupnpdLab;
  beforeAll(async () => {
    lab = await createMiniupnpdLab({ miniupnpd: false });
  }, 30_000);
  afterAll(async () => lab?.destroy());

  it("says 'no-router' within 3 s", async () => {
    const agent = await lanAgent(lab);
    agent.send({ cmd: 'map', internalPort: 40_300, recordFile: join(lab.dir, 'record.json') });
    const mapped = await agent.next('mapped');
    expect(mapped.result).toEqual({ ok: false, failure: { kind: 'no-router' } });
    expect(mapped.ms, `${mapped.ms} ms`).toBeLessThan(3_000);
  });
});

describe.skipIf(skip)('a home router behind carrier-grade NAT', () => {
  let lab: MiniupnpdLab;
  beforeAll(async () => {
    lab = await createMiniupnpdLab({ miniupnpd: true, stunReportsAs: '100.64.0.2' });
  }, 30_000);
  afterAll(async () => lab?.destroy());

  it("says 'cgnat' and leaves no mapping behind", async () => {
    const agent = await lanAgent(lab);
    agent.send({ cmd: 'map', internalPort: 40_400, recordFile: join(lab.dir, 'record.json') });
    const result = (await agent.next('mapped')).result as MappedEvent;
    expect(result).toEqual({ ok: false, failure: { kind: 'cgnat', externalAddress: '100.64.0.2' } });
    expect(lab.mappingChain()).not.toMatch(/dnat/);
  });
});

describe.skipIf(skip)('a home router behind a second NAT', () => {
  let lab: MiniupnpdLab;
  beforeAll(async () => {
    lab = await createMiniupnpdLab({ miniupnpd: true, secondNat: true });
  }, 30_000);
  afterAll(async () => lab?.destroy());

  it("maps unchecked, but the player's STUN server sees another address: 'double-nat', no mapping left", async () => {
    const agent = await lanAgent(lab);
    const recordFile = join(lab.dir, 'record.json');
    // Without a STUN server to ask, the router's word is taken (the mapping a second NAT makes useless).
    agent.send({ cmd: 'map', internalPort: 40_500, recordFile });
    const unchecked = (await agent.next('mapped')).result as MappedEvent;
    expect(unchecked, JSON.stringify(unchecked)).toMatchObject({
      ok: true,
      mapping: { externalAddress: lab.routerWan },
    });
    agent.send({ cmd: 'close' });
    await agent.next('closed');
    const stun = { host: '203.0.113.2', port: 3478 };
    const checking = await lanAgent(lab);
    checking.send({ cmd: 'map', internalPort: 40_501, recordFile, stun });
    const result = (await checking.next('mapped')).result as MappedEvent;
    expect(result).toEqual({
      ok: false,
      failure: { kind: 'double-nat', externalAddress: '198.51.100.1', stunAddress: '203.0.113.1' },
    });
    expect(lab.mappingChain()).not.toMatch(/dnat/);
  });
});
