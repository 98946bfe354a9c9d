import { createSocket } from 'node:dgram';

/** Ports tests pick from: below Linux's ephemeral range (32768–60999), so no socket bound to port 0 lands on one. */
const FIRST = 20_000;
const END = 32_000;

/**
 * A UDP port that was free a moment ago, for tests that need a fixed port both sides know (discovery).
 * Taken outside the ephemeral range: a port read back from bind(0) and closed could be handed to another
 * test's bind(0) before this test binds it again, which made a discovery test hang in a full run.
 */
export async function freeUdpPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (END - FIRST));
    const socket = createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(port, '0.0.0.0', () => resolve(true));
    });
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    if (free) return port;
  }
  throw new Error(`no free UDP port found in ${FIRST}–${END}`);
}
