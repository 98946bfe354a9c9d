// A whole LAN Party backend inside a NAT-lab namespace, driven over stdio by tests/lab/internetRooms.test.ts:
// one JSON command per line in, one JSON event per line out. Network options are explicit (the namespace's own
// address; discovery only to loopback), never the app's defaults. Its user-data folder is argv[3], made and removed
// by the driver (tests/support/labRoomDriver.ts).
import { createInterface } from 'node:readline';
import { createBackend } from '../../main/createBackend';
import { silentLogger, type Logger } from '../../main/base/logger';
import type { NetworkOptions } from '../../main/base/networkOptions';

// The test names every network option (tests/lab/internetRooms.test.ts, labNetwork): JSON in argv[2].
const network = JSON.parse(process.argv[2] ?? '{}') as Partial<NetworkOptions> & { readonly ownAddress: string };
const { ownAddress, ...options } = network;
const out = (event: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify(event)}\n`);
// LAB_ROOM_LOGS=1: the backend's info and warnings become events, with this machine's wall clock (as the test's).
const forwarded: Logger = {
  info: (line) => out({ ev: 'log', level: 'info', line: String(line), at: Date.now() }),
  warn: (line) => out({ ev: 'log', level: 'warn', line: String(line), at: Date.now() }),
  error: (line) => out({ ev: 'log', level: 'error', line: String(line), at: Date.now() }),
};
const dir = process.argv[3];
if (dir === undefined) throw new Error('labRoomPeer: no user-data folder given (argv[3])');
const backend = createBackend({
  app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
  userDataDir: dir,
  osUserName: 'lab',
  validateOutputs: true,
  logger: process.env.LAB_ROOM_LOGS === '1' ? forwarded : silentLogger,
  network: {
    ...options,
    iceHostAddresses: [ownAddress],
    networkInterfaces: () => ({
      eth: [{ address: ownAddress, netmask: '255.255.255.0', family: 'IPv4', internal: false }],
    }),
  },
});

backend.gateway.subscribe((name, payload) => {
  if (name === 'lobby.changed' || name === 'game.snapshot' || name === 'game.results')
    out({ ev: 'event', name, payload });
});
const ctx = { transport: 'websocket' } as const;

createInterface({ input: process.stdin }).on('line', (line) => {
  void (async () => {
    const command = JSON.parse(line) as {
      id: number;
      call?: string;
      input?: unknown;
      exit?: boolean;
      hostStats?: boolean;
    };
    if (command.exit) {
      await backend.close();
      process.exit(0);
    }
    // What the room refused and checked (LobbyHost.stats()): no IPC call shows it, the lab's figures need it.
    if (command.hostStats) {
      const session = backend.lobby.session();
      const value = session?.role === 'host' ? session.host.stats() : null;
      return out({ ev: 'result', id: command.id, result: { ok: true, value } });
    }
    const result = await backend.gateway.dispatch(command.call!, command.input, ctx);
    out({ ev: 'result', id: command.id, result });
  })().catch((error: unknown) => out({ ev: 'error', message: String((error as Error)?.stack ?? error) }));
});
out({ ev: 'ready' });
