// Run inside a NAT-lab namespace by tests/lab/trustTurnClock.test.ts: the real rendezvous server on a virtual
// clock (the service's scheduler and wall clock injected; the WebSocket transport keeps real time). The wall
// clock starts `startOffsetMs` from the real one (the test starts it 24 h back, so at virtual hour 24 the
// credentials the service mints are valid for the lab's coturn, which checks them against the real clock).
// It mints TURN credentials only when a host accepts a guest, from the virtual wall clock of that moment.
// stdin: one JSON command a line ({"advanceMs":N,"stepMs":S} or {"exit":true}); stdout: one JSON event a line.
import { createInterface } from 'node:readline';
import { silentLogger } from '../../main/base/logger';
import { startRendezvousServer } from '../../main/rendezvous/rendezvousServer';
import { ManualScheduler } from './manualScheduler';

interface ClockOptions {
  readonly host: string;
  readonly port: number;
  readonly turnUrl: string;
  readonly turnSecret: string;
  readonly startOffsetMs: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ClockOptions;
const out = (event: Record<string, unknown>) => void process.stdout.write(`${JSON.stringify(event)}\n`);

async function main(): Promise<void> {
  const scheduler = new ManualScheduler(0);
  const wallAtStart = Date.now() + options.startOffsetMs;
  const virtualWall = () => wallAtStart + scheduler.now();
  const server = await startRendezvousServer({
    host: options.host,
    port: options.port,
    scheduler,
    wallClock: virtualWall,
    logger: silentLogger,
    turn: { urls: [options.turnUrl], secret: options.turnSecret },
  });
  out({ ev: 'ready', url: server.url });
  createInterface({ input: process.stdin }).on('line', (line) => {
    void (async () => {
      const command = JSON.parse(line) as { advanceMs?: number; stepMs?: number; exit?: boolean };
      if (command.exit) {
        await server.close();
        process.exit(0);
      }
      // In steps, letting the real event loop run between them: pings are answered, rooms expire.
      const step = command.stepMs ?? 60_000;
      for (let left = command.advanceMs ?? 0; left > 0; left -= step) {
        scheduler.advance(Math.min(step, left));
        await new Promise((r) => setImmediate(r));
      }
      await new Promise((r) => setTimeout(r, 50));
      out({ ev: 'advanced', hour: scheduler.now() / 3_600_000, wallMs: virtualWall() });
    })().catch((error: unknown) => out({ ev: 'error', message: String((error as Error)?.stack ?? error) }));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
