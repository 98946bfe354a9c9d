/**
 * A peer that keeps talking, in its own process so it goes on while the test's event loop is blocked
 * (`node --import tsx tests/support/chattyPeerAgent.ts PORT v1|native`): connects to 127.0.0.1:PORT with a 30 s
 * timeout (it must outlast the test's stall), prints `connected`, then sends an unreliable `tick` every 50 ms until
 * its stdin closes. Killed, it falls silent at once, sending nothing more (no disconnect).
 */
import { Channel, Client } from '../../main/net/index';

async function main(port: number, protocol: string | undefined): Promise<void> {
  const client = new Client({ timeout: 30, ...(protocol === 'v1' ? { native: false as const } : {}) });
  client.onDisconnect((reason) => {
    process.stdout.write(`disconnected: ${reason}\n`);
    process.exit(1);
  });
  await client.connect('127.0.0.1', port);
  process.stdout.write('connected\n');
  let n = 0;
  const timer = setInterval(() => client.send('tick', { n: n++ }, Channel.UNRELIABLE), 50);
  process.stdin.resume();
  await new Promise<void>((resolve) => process.stdin.once('end', resolve));
  clearInterval(timer);
  await client.close();
}

main(Number(process.argv[2]), process.argv[3]).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
