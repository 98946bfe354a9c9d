/**
 * Runs inside a test network namespace (`ip netns exec NS node --import tsx tests/support/netnsMigrationAgent.ts`):
 *   server '{"host":"10.214.x.2"}'                               → prints READY {"port":…}, then one JSON line per
 *                                                                   event (connect, up, migrate) until stdin closes
 *   client '{"host":…,"port":…,"count":…,"perTick":…,"tickMs":…}' → connects, prints CONNECTED {"peerId":…,
 *                                                                   "protocol":…}, sends `up` {i} on
 *                                                                   RELIABLE_ORDERED, perTick every tickMs, until
 *                                                                   count; prints SENT, waits for stdin to close
 * Addresses are the namespaces' own (the test creates and deletes them); nothing else is sent to.
 */
import { Channel, Client, Server } from '../../main/net/index';

interface ServerArgs {
  host: string;
}

interface ClientArgs {
  host: string;
  port: number;
  count: number;
  perTick: number;
  tickMs: number;
}

const line = (text: string) => process.stdout.write(`${text}\n`);
const stdinClosed = () =>
  new Promise<void>((resolve) => {
    process.stdin.resume();
    process.stdin.once('end', resolve);
  });

async function serve(args: ServerArgs): Promise<void> {
  const server = await Server.listen({ port: 0, host: args.host, connectLimits: false });
  server.onConnect((peer) =>
    line(JSON.stringify({ ev: 'connect', peer: peer.id, endpoint: peer.endpoint, protocol: peer.protocol })),
  );
  server.onMessage('up', (peer, m) => line(JSON.stringify({ ev: 'up', peer: peer.id, i: m.i })));
  server.onMigrate((peer, from) => line(JSON.stringify({ ev: 'migrate', peer: peer.id, from, to: peer.endpoint })));
  server.onDisconnect((peer, reason) => line(JSON.stringify({ ev: 'disconnect', peer: peer.id, reason })));
  line(`READY ${JSON.stringify({ port: server.port })}`);
  await stdinClosed();
  await server.close();
}

async function client(args: ClientArgs): Promise<void> {
  const c = new Client({});
  c.onDisconnect((reason) => line(JSON.stringify({ ev: 'disconnect', reason })));
  await c.connect(args.host, args.port, { timeout: 10 });
  line(`CONNECTED ${JSON.stringify({ peerId: c.peerId, protocol: c.protocol })}`);
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let k = 0; k < args.perTick && sent < args.count; k++, sent++) {
        c.send('up', { i: sent }, Channel.RELIABLE_ORDERED);
      }
      if (sent >= args.count) {
        clearInterval(timer);
        resolve();
      }
    }, args.tickMs);
  });
  line('SENT');
  await stdinClosed();
  await c.close();
}

async function main(mode: string | undefined, json: string | undefined): Promise<void> {
  if (mode === 'server') return serve(JSON.parse(json ?? '{}') as ServerArgs);
  if (mode === 'client') return client(JSON.parse(json ?? '{}') as ClientArgs);
  throw new Error(`unknown mode ${String(mode)}`);
}

main(process.argv[2], process.argv[3]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
