/**
 * Runs inside a test network namespace (`ip netns exec NS node --import tsx tests/support/netnsDiscoveryAgent.ts`):
 *   serve  '{"name":…,"gamePort":…,"port":…,"players":…,"instanceId":…}'  → prints READY, answers until stdin closes
 *   search '{"port":…,"timeoutMs":…,"allowedPrefix":"10.213."}'            → prints the servers found as JSON
 * The searcher sends only to the directed broadcasts of the namespace's own interfaces, and refuses to send at
 * all unless every one of them starts with allowedPrefix.
 */
import { networkInterfaces } from 'node:os';
import { defaultBroadcastTargets, discoverLanServers, startLanDiscovery } from '../../main/net/discovery';

interface ServeArgs {
  name: string;
  gamePort: number;
  port: number;
  players: number;
  instanceId?: string;
}

interface SearchArgs {
  port: number;
  timeoutMs: number;
  allowedPrefix: string;
}

async function serve(args: ServeArgs): Promise<void> {
  const handle = await startLanDiscovery({
    name: args.name,
    gamePort: args.gamePort,
    port: args.port,
    getPlayerCount: () => args.players,
    ...(args.instanceId ? { instanceId: args.instanceId } : {}),
  });
  process.stdout.write(`READY ${JSON.stringify({ port: handle.port, instanceId: handle.instanceId })}\n`);
  process.stdin.resume();
  await new Promise<void>((resolve) => process.stdin.once('end', resolve));
  await handle.close();
  process.stdout.write(`STATS ${JSON.stringify(handle.stats())}\n`);
}

async function search(args: SearchArgs): Promise<void> {
  const targets = defaultBroadcastTargets(networkInterfaces(), { includeLimitedBroadcast: false });
  if (targets.length === 0 || !targets.every((target) => target.startsWith(args.allowedPrefix))) {
    throw new Error(`refusing to search: unexpected targets ${JSON.stringify(targets)}`);
  }
  const found = await discoverLanServers({ port: args.port, timeoutMs: args.timeoutMs, targets });
  process.stdout.write(`${JSON.stringify({ targets, found })}\n`);
}

async function main(mode: string | undefined, json: string | undefined): Promise<void> {
  if (mode === 'serve') return serve(JSON.parse(json ?? '{}') as ServeArgs);
  if (mode === 'search') return search(JSON.parse(json ?? '{}') as SearchArgs);
  throw new Error(`unknown mode ${String(mode)}`);
}

main(process.argv[2], process.argv[3]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
