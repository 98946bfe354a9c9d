// A stranger on the lab's DHT (tests/support/privateDhtLab.ts) who read a room's key off an invite and floods it with
// connects, with none of the app's code: `node --import tsx labDhtStranger.ts '<FloodSpec JSON>' <bootstrap>…`. Each
// connect comes from a fresh key pair; the flood is bounded in count, in how many are pending or open at once and in
// time. Each stream that opens gets junk (unordered messages, and stream bytes the room's protocol never uses) and is
// held a while before it gives its place to the next. JSON lines out (StrangerEvent); exits when its stdin closes.
import HyperDHT, { type DhtStream } from 'hyperdht';

/** What to flood, and how hard. */
export interface FloodSpec {
  /** The room's key, 64 hex digits. */
  readonly publicKey: string;
  /** Connects in all. */
  readonly connections: number;
  /** Connects pending or open at once. */
  readonly atOnce: number;
  /** No connect starts after this many ms. */
  readonly withinMs: number;
}

/** What the stranger says. */
export type StrangerEvent =
  | { readonly ev: 'ready'; readonly ms: number }
  | { readonly ev: 'opened'; readonly count: number }
  | { readonly ev: 'flooded'; readonly started: number; readonly opened: number; readonly ms: number }
  | { readonly ev: 'error'; readonly message: string };

/** How long an open stream is held before it is dropped for the next connect. */
const HOLD_MS = 2_000;
/** How long a connect that never settles keeps its place. */
const GIVE_UP_MS = 10_000;

const say = (event: StrangerEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);

async function flood(node: HyperDHT, spec: FloodSpec): Promise<void> {
  const started = performance.now();
  const key = Buffer.from(spec.publicKey, 'hex');
  let begun = 0;
  let opened = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const socket = node.connect(key, { keyPair: HyperDHT.keyPair() });
      let timer = setTimeout(() => done(), GIVE_UP_MS);
      const done = () => {
        clearTimeout(timer);
        socket.destroy();
        resolve();
      };
      socket.on('error', done).on('close', done);
      socket.on('open', () => {
        opened += 1;
        say({ ev: 'opened', count: opened });
        for (let i = 0; i < 3; i += 1) socket.send(Buffer.from(`junk ${i} `.repeat(40)));
        (socket as DhtStream & { write(data: Buffer): boolean }).write(Buffer.from('not a CPace message'));
        clearTimeout(timer);
        timer = setTimeout(done, HOLD_MS);
      });
    });
  const lane = async () => {
    while (begun < spec.connections && performance.now() - started < spec.withinMs) {
      begun += 1;
      await one();
    }
  };
  await Promise.all(Array.from({ length: spec.atOnce }, lane));
  say({ ev: 'flooded', started: begun, opened, ms: Math.round(performance.now() - started) });
}

async function main(): Promise<void> {
  const [specText, ...bootstrap] = process.argv.slice(2);
  const spec = JSON.parse(specText ?? '{}') as FloodSpec;
  const started = performance.now();
  const node = new HyperDHT({ bootstrap });
  process.stdin.on('close', () => void node.destroy().finally(() => process.exit(0))).resume();
  await node.fullyBootstrapped();
  say({ ev: 'ready', ms: Math.round(performance.now() - started) });
  await flood(node, spec);
}

main().catch((error: unknown) => say({ ev: 'error', message: String((error as Error)?.stack ?? error) }));
