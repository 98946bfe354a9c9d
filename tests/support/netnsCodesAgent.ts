/**
 * Runs inside a test network namespace (`ip netns exec NS node --import tsx tests/support/netnsCodesAgent.ts`):
 *   host  '{"discoveryPort":…,"gamePort":…,"broadcast":"10.214.x.255","name":…}' → prints READY {view}, hosts until stdin closes
 *   join  '{"discoveryPort":…,"code":…}'  → joins, prints {"ok":true,"view":…} or {"ok":false,…}, leaves, exits
 *   probe '{"discoveryPort":…,"code":…}'  → prints where the code leads on this machine and what each address said
 * Everything is sent only to the namespace's own subnets (and the documentation range, which has no route here).
 */
import { networkInterfaces } from 'node:os';
import { silentLogger } from '../../main/base/logger';
import { resolveNetworkOptions } from '../../main/base/networkOptions';
import { candidatesFor } from '../../main/reach/lan/findRoom';
import { createLobbyService } from '../../main/lobby/lobbyService';
import { createLanReach } from '../../main/reach/lan/index';
import { probeServer } from '../../main/net/discovery';
import { IpcError } from '../../shared/ipc/errors';
import { parseJoinCode } from '../../shared/roomCode';

interface Args {
  discoveryPort: number;
  gamePort?: number;
  broadcast?: string;
  name?: string;
  code?: string;
}

function lobby(args: Args) {
  const network = resolveNetworkOptions({
    discoveryPort: args.discoveryPort,
    defaultGamePort: args.gamePort ?? 0,
    broadcastTargets: args.broadcast ? [args.broadcast] : [],
    announceIntervalMs: 60_000,
    joinTimeoutSec: 2,
  });
  return createLobbyService({
    network,
    reaches: { lan: createLanReach({ network, platform: 'linux', logger: silentLogger }) },
    settings: async () => ({
      playerName: args.name ?? 'Guest',
      playerColor: '#3ddc97',
      onboarded: true,
      notifications: true,
      theme: 'system',
    }),
    platform: 'linux',
    logger: silentLogger,
  });
}

async function host(args: Args): Promise<void> {
  const service = lobby(args);
  await service.host({});
  process.stdout.write(`READY ${JSON.stringify(service.view())}\n`);
  process.stdin.resume();
  await new Promise<void>((resolve) => process.stdin.once('end', resolve));
  await service.close();
}

async function join(args: Args): Promise<void> {
  const service = lobby(args);
  const started = performance.now();
  try {
    await service.joinByCode({ code: args.code ?? '' });
    const view = service.view();
    process.stdout.write(`${JSON.stringify({ ok: true, elapsedMs: performance.now() - started, view })}\n`);
  } catch (error) {
    const elapsedMs = performance.now() - started;
    if (!(error instanceof IpcError)) throw error;
    process.stdout.write(`${JSON.stringify({ ok: false, elapsedMs, ...error.toData() })}\n`);
  }
  await service.close();
}

async function probe(args: Args): Promise<void> {
  const candidates = candidatesFor(parseJoinCode(args.code ?? ''), networkInterfaces());
  const results = await Promise.all(
    candidates.map((candidate) => probeServer({ host: candidate.host, port: args.discoveryPort })),
  );
  process.stdout.write(`${JSON.stringify({ candidates, results })}\n`);
}

async function main(mode: string | undefined, json: string | undefined): Promise<void> {
  const args = JSON.parse(json ?? '{}') as Args;
  if (mode === 'host') return host(args);
  if (mode === 'join') return join(args);
  if (mode === 'probe') return probe(args);
  throw new Error(`unknown mode ${String(mode)}`);
}

main(process.argv[2], process.argv[3]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
