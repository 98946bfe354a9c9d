// A bare HyperDHT peer inside a lab namespace (tests/support/privateDhtLab.ts), with none of the app's code: it proves
// what the lab lets through before the app's DHT path is put on it. `node --import tsx labDhtPeer.ts <bootstrap>`;
// JSON lines in (DhtPeerCommand) and out (DhtPeerEvent). `listen`: a server on a fresh key pair that echoes every
// unordered message. `connect`: connects by key, sends `messages` unordered messages once the stream is open and
// reports how many came back. Exits when its stdin closes.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

/** What the test sends. */
export type DhtPeerCommand =
  { readonly cmd: 'listen' } | { readonly cmd: 'connect'; readonly publicKey: string; readonly messages: number };

/** What the peer says. */
export type DhtPeerEvent =
  | { readonly ev: 'ready'; readonly ms: number; readonly host: string | null; readonly port: number }
  | { readonly ev: 'listening'; readonly publicKey: string }
  | { readonly ev: 'open'; readonly ms: number }
  | { readonly ev: 'echoed'; readonly count: number; readonly ms: number }
  | { readonly ev: 'failed'; readonly code: string; readonly message: string; readonly ms: number }
  | { readonly ev: 'error'; readonly message: string };

/** The part of hyperdht's secret stream this peer uses (the package has no types). */
interface SecretStream {
  on(event: 'open' | 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): this;
  on(event: 'message', listener: (message: Uint8Array) => void): this;
  send(message: Uint8Array): void;
  destroy(): void;
}
interface DhtNode {
  fullyBootstrapped(): Promise<void>;
  readonly host: string | null;
  readonly port: number;
  createServer(onConnection: (socket: SecretStream) => void): { listen(keyPair: KeyPair): Promise<void> };
  connect(publicKey: Uint8Array): SecretStream;
  destroy(options?: { force?: boolean }): Promise<void>;
}
interface KeyPair {
  readonly publicKey: Uint8Array;
  readonly secretKey: Uint8Array;
}
type DhtNodeClass = (new (options: { bootstrap: readonly string[] }) => DhtNode) & { keyPair(): KeyPair };

const HyperDht = createRequire(__filename)('hyperdht') as DhtNodeClass;
const say = (event: DhtPeerEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);
/** How long the client waits for its echoes once the stream is open (the lab loses nothing: all come in ms). */
const ECHO_WAIT_MS = 5_000;

function connect(node: DhtNode, publicKey: string, messages: number): void {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const socket = node.connect(Buffer.from(publicKey, 'hex'));
  let echoed = 0;
  let reported = false;
  const report = () => {
    if (reported) return;
    reported = true;
    say({ ev: 'echoed', count: echoed, ms: since() });
  };
  socket.on('error', (error) => say({ ev: 'failed', code: error.code ?? 'none', message: error.message, ms: since() }));
  socket.on('message', () => {
    echoed += 1;
    if (echoed === messages) report();
  });
  socket.on('open', () => {
    say({ ev: 'open', ms: since() });
    for (let i = 0; i < messages; i += 1) socket.send(Buffer.from(`datagram ${i}`));
    setTimeout(report, ECHO_WAIT_MS);
  });
}

async function main(): Promise<void> {
  const bootstrap = process.argv.slice(2);
  const started = performance.now();
  const node = new HyperDht({ bootstrap });
  await node.fullyBootstrapped();
  say({ ev: 'ready', ms: Math.round(performance.now() - started), host: node.host, port: node.port });
  process.stdin.on('close', () => void node.destroy({ force: true }).finally(() => process.exit(0)));
  createInterface({ input: process.stdin }).on('line', (line) => {
    const command = JSON.parse(line) as DhtPeerCommand;
    if (command.cmd === 'connect') return connect(node, command.publicKey, command.messages);
    const keyPair = HyperDht.keyPair();
    const server = node.createServer((socket) => {
      socket.on('error', () => undefined); // a client that gives up is not this peer's failure
      socket.on('message', (message) => socket.send(message));
    });
    void server
      .listen(keyPair)
      .then(() => say({ ev: 'listening', publicKey: Buffer.from(keyPair.publicKey).toString('hex') }))
      .catch((error: unknown) => say({ ev: 'error', message: String(error) }));
  });
}

main().catch((error: unknown) => say({ ev: 'error', message: String((error as Error)?.stack ?? error) }));
