// The bootstrap nodes of a private HyperDHT (tests/support/privateDhtLab.ts), one process inside the lab's public
// namespace: `node --import tsx labDhtNodes.ts <port> <host>…` starts one persistent node per host (each on its own address:
// dht-rpc tells whether it is firewalled from pings by other hosts, so one address for all would mislead it; see
// nat-lab-notes.md), each bootstrapping from the ones before it, then prints one JSON line `{"ev":"ready",…}`.
// It destroys the nodes and exits when its stdin closes (the lab's destroy, or the test process dying).
import HyperDHT from 'hyperdht';

const [portText, ...hosts] = process.argv.slice(2);
const port = Number(portText);
const say = (event: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(event)}\n`);

async function main(): Promise<void> {
  if (!Number.isInteger(port) || port <= 0 || hosts.length === 0) throw new Error('usage: <port> <host>…');
  const started = performance.now();
  const nodes: HyperDHT[] = [];
  const stop = () => void Promise.all(nodes.map((node) => node.destroy())).finally(() => process.exit(0));
  process.stdin.on('end', stop).on('close', stop).resume();
  for (const [index, host] of hosts.entries()) {
    const bootstrap = hosts.slice(0, index).map((before) => `${before}:${port}`);
    const node = new HyperDHT({ ephemeral: false, firewalled: false, host, port, bootstrap });
    nodes.push(node);
    await node.fullyBootstrapped();
  }
  say({ ev: 'ready', ms: Math.round(performance.now() - started) });
}

main().catch((error: unknown) => {
  say({ ev: 'error', message: String((error as Error)?.stack ?? error) });
  process.exit(1);
});
