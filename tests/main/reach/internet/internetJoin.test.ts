import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectInternetRoom } from '../../../../main/reach/internet/internetJoin';
import { systemScheduler } from '../../../../main/base/scheduler';
import { IpcError } from '../../../../shared/ipc/errors';
import { encodeInternetCode, RENDEZVOUS_ERROR_TEXT } from '../../../../shared/rendezvous';
import { loopbackRendezvousUrl } from './loopbackInternetRoom';

const code = encodeInternetCode('7K3QXM', 'K7Q2M9XD4');

/** A TCP port on 127.0.0.1 that nothing listens on (bound, read, closed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function failure(promise: Promise<unknown>): Promise<IpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IpcError);
  return error as IpcError;
}

describe('connectInternetRoom failures, in words', () => {
  it('refuses a mistyped code before asking anyone, and says so without a rendezvous', async () => {
    const typo = code.slice(0, -1) + (code.endsWith('0') ? '1' : '0');
    const settings = { rendezvousUrl: 'ws://127.0.0.1:1/rendezvous/v1', turn: { mode: 'none' } } as const;
    expect((await failure(connectInternetRoom(typo, { settings, scheduler: systemScheduler }))).code).toBe(
      'invalid-argument',
    );
    const off = await failure(
      connectInternetRoom(code, {
        settings: { rendezvousUrl: null, turn: { mode: 'none' } },
        scheduler: systemScheduler,
      }),
    );
    expect(off.code).toBe('failed-precondition');
    expect(off.message).toMatch(/Settings → Internet rooms/);
  });

  it('an unreachable rendezvous is a sentence; the socket’s own words are the detail', async () => {
    const url = loopbackRendezvousUrl(await deadPort());
    const steps: string[] = [];
    const down = await failure(
      connectInternetRoom(code, {
        settings: { rendezvousUrl: url, turn: { mode: 'shared-secret' } },
        scheduler: systemScheduler,
        onStep: (step) => steps.push(step),
      }),
    );
    expect(steps).toEqual(['finding-host']);
    expect(down.code).toBe('unavailable');
    expect(down.message).toBe(RENDEZVOUS_ERROR_TEXT.unreachable);
    expect(down.detail).toMatch(/ECONNREFUSED/);
    expect(down.detail).toContain(url);
  });
});
