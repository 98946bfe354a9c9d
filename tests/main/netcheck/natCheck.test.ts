import { afterEach, describe, expect, it } from 'vitest';
import { checkNat, stunEndpointsFor } from '../../../main/netcheck/natCheck';
import { startStunTestServer, stunSuccess, type StunAnswer } from '../../support/stunTestServer';

const servers: Array<Awaited<ReturnType<typeof startStunTestServer>>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function twoServers(a: StunAnswer, b: StunAnswer) {
  const one = await startStunTestServer(a);
  const two = await startStunTestServer(b);
  servers.push(one, two);
  return [
    { host: '127.0.0.1', port: one.port },
    { host: '127.0.0.1', port: two.port },
  ];
}

const LOCAL = ['127.0.0.1'];
const options = { localAddresses: LOCAL, bindAddress: '127.0.0.1', timeoutMs: 300 };

describe('checkNat', () => {
  it('says open when the servers see this socket itself', async () => {
    const echo: StunAnswer = (from, tx) => stunSuccess(tx, from.address, from.port);
    const report = await checkNat({ ...options, servers: await twoServers(echo, echo) });
    expect(report.status).toBe('open');
    expect(report.mappings).toHaveLength(2);
    expect(report.mappings[0]!.mapped).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('says endpoint-independent when both servers see one public port', async () => {
    const fixed: StunAnswer = (_from, tx) => stunSuccess(tx, '203.0.113.1', 40000);
    const report = await checkNat({ ...options, servers: await twoServers(fixed, fixed) });
    expect(report.status).toBe('endpoint-independent');
    expect(report.title).toMatch(/directly/);
  });

  it('says symmetric (relay) when each server sees another port', async () => {
    const report = await checkNat({
      ...options,
      servers: await twoServers(
        (_f, tx) => stunSuccess(tx, '203.0.113.1', 40000),
        (_f, tx) => stunSuccess(tx, '203.0.113.1', 40001),
      ),
    });
    expect(report.status).toBe('symmetric');
    expect(report.message).toMatch(/relay/);
  });

  it('says blocked when nobody answers, after retrying, and ignores garbage and other transactions', async () => {
    const garbage: StunAnswer = () => Uint8Array.from([1, 2, 3]);
    const wrongTx: StunAnswer = (_f, tx) =>
      stunSuccess(
        tx.map((b) => b ^ 1),
        '203.0.113.1',
        40000,
      );
    const list = await twoServers(garbage, wrongTx);
    const report = await checkNat({ ...options, servers: list, attempts: 3 });
    expect(report.status).toBe('blocked');
    expect(report.mappings.every((row) => row.mapped === null)).toBe(true);
    expect(servers.every((server) => server.requests === 3)).toBe(true);
  });

  it('with one server behind a NAT it cannot tell the kind, and says so', async () => {
    const one = await startStunTestServer((_f, tx) => stunSuccess(tx, '203.0.113.1', 40000));
    servers.push(one);
    const report = await checkNat({ ...options, servers: [{ host: '127.0.0.1', port: one.port }] });
    expect(report.status).toBe('mapped');
  });

  it('is skipped without servers, and a bind failure is a report, not a throw', async () => {
    expect((await checkNat({ ...options, servers: [] })).status).toBe('skipped');
    const refused = await checkNat({
      ...options,
      servers: [{ host: '127.0.0.1', port: 9 }],
      openUdp: () => Promise.reject(Object.assign(new Error('busy'), { code: 'EADDRINUSE' })),
    });
    expect(refused).toMatchObject({ status: 'failed', message: expect.stringContaining('EADDRINUSE') });
  });
});

describe('stunEndpointsFor', () => {
  it('asks the port and the one above it (coturn’s alternate port), never past 65535', () => {
    expect(stunEndpointsFor('203.0.113.10', 3478)).toEqual([
      { host: '203.0.113.10', port: 3478 },
      { host: '203.0.113.10', port: 3479 },
    ]);
    expect(stunEndpointsFor('h', 65535)).toEqual([{ host: 'h', port: 65535 }]);
  });
});
