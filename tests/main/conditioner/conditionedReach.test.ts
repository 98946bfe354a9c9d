import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { conditionedReach } from '../../../main/conditioner/conditionedReach';
import type { JoinRoute } from '../../../main/conditioner/devConditioner';
import type { LocatedRoom, RoomReach } from '../../../main/reach/roomReach';

const context = { onProgress: () => undefined };

function reachLocating(located: LocatedRoom): RoomReach {
  return {
    locate: async () => located,
    open: async () => ({ close: async () => undefined }),
  };
}

describe('the conditioner over a reach', () => {
  it('sends a located room through the relay, keeps the room’s own target, and closes both with the stay', async () => {
    const roomClosed = vi.fn(async () => undefined);
    const relayClosed = vi.fn(async () => undefined);
    const route: JoinRoute = { host: '127.0.0.1', port: 40001, close: relayClosed };
    const routeTo = vi.fn(async () => route);
    const reach = conditionedReach(
      reachLocating({ target: { host: '192.168.1.20', port: 9000 }, close: roomClosed }),
      { routeTo },
      silentLogger,
    );
    const located = await reach.locate({ code: 'x' }, context);
    expect(routeTo).toHaveBeenCalledWith({ host: '192.168.1.20', port: 9000 });
    expect(located).toMatchObject({
      target: { host: '192.168.1.20', port: 9000 },
      connectTo: { host: '127.0.0.1', port: 40001 },
    });
    await located.close();
    expect(relayClosed).toHaveBeenCalledOnce();
    expect(roomClosed).toHaveBeenCalledOnce();
  });

  it('passes a room through untouched without a profile, or when it is reached over its own socket', async () => {
    const routeTo = vi.fn(async () => null);
    const plain: LocatedRoom = { target: { host: '10.0.0.2', port: 9000 }, close: async () => undefined };
    expect(await conditionedReach(reachLocating(plain), { routeTo }, silentLogger).locate({ code: 'x' }, context)).toBe(
      plain,
    );
    const overIce: LocatedRoom = { ...plain, openSocket: async () => ({}) as never };
    const relaying = vi.fn(async () => ({ host: '127.0.0.1', port: 1, close: async () => undefined }));
    expect(
      await conditionedReach(reachLocating(overIce), { routeTo: relaying }, silentLogger).locate(
        { code: 'x' },
        context,
      ),
    ).toBe(overIce);
    expect(relaying).not.toHaveBeenCalled();
  });

  it('lets go of the located room when the relay cannot start', async () => {
    const roomClosed = vi.fn(async () => undefined);
    const reach = conditionedReach(
      reachLocating({ target: { host: '10.0.0.2', port: 9000 }, close: roomClosed }),
      { routeTo: async () => Promise.reject(new Error('no port for the relay')) },
      silentLogger,
    );
    await expect(reach.locate({ code: 'x' }, context)).rejects.toThrow('no port for the relay');
    expect(roomClosed).toHaveBeenCalledOnce();
  });
});
