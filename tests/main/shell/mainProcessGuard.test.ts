import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { installMainProcessGuard, type GuardedProcess } from '../../../main/shell/mainProcessGuard';
import { loggerSpy } from '../ipc/loggerSpy';
import { ManualScheduler } from '../../support/manualScheduler';

function setup(closeRoom: () => Promise<void> = async () => {}) {
  const proc = new EventEmitter();
  const steps: string[] = [];
  const scheduler = new ManualScheduler(0);
  const logger = loggerSpy();
  const options = {
    process: proc as unknown as GuardedProcess,
    logger,
    closeRoom: vi.fn(async () => {
      steps.push('close');
      await closeRoom();
      steps.push('closed');
    }),
    tellUser: vi.fn((message: string) => void steps.push(`tell:${message.slice(0, 20)}`)),
    exit: vi.fn((code: number) => void steps.push(`exit:${code}`)),
    scheduler,
  };
  installMainProcessGuard(options);
  return { proc, steps, ...options };
}

describe('main process guard', () => {
  it('an uncaught exception is logged, the room closed for its guests, the player told, then exit 1', async () => {
    const { proc, steps, logger } = setup();
    const boom = new Error('boom');
    proc.emit('uncaughtException', boom);
    await vi.waitFor(() => expect(steps).toContain('exit:1'));
    expect(steps).toEqual(['close', 'closed', 'tell:LAN Party hit an une', 'exit:1']);
    expect(logger.error).toHaveBeenCalledWith('main process: uncaught exception', boom);
  });

  it('an unhandled rejection does the same', async () => {
    const { proc, exit, closeRoom } = setup();
    proc.emit('unhandledRejection', 'socket gone');
    await vi.waitFor(() => expect(exit).toHaveBeenCalledExactlyOnceWith(1));
    expect(closeRoom).toHaveBeenCalledOnce();
  });

  it('a second failure while closing is only logged', async () => {
    let release: () => void = () => {};
    const { proc, exit, closeRoom, logger } = setup(() => new Promise<void>((resolve) => (release = resolve)));
    proc.emit('uncaughtException', new Error('first'));
    proc.emit('uncaughtException', new Error('second'));
    expect(closeRoom).toHaveBeenCalledOnce();
    expect(logger.error).toHaveBeenCalledTimes(2);
    release();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledOnce());
  });

  it('a room close that fails or throws still exits', async () => {
    const failing = setup(async () => {
      throw new Error('close failed');
    });
    failing.proc.emit('uncaughtException', new Error('x'));
    await vi.waitFor(() => expect(failing.exit).toHaveBeenCalledExactlyOnceWith(1));
    expect(failing.logger.error).toHaveBeenCalledWith('closing the room failed', expect.any(Error));
  });

  it('a room close that hangs is given up on after the timeout', async () => {
    const { proc, scheduler, exit, tellUser } = setup(() => new Promise<void>(() => {}));
    proc.emit('uncaughtException', new Error('x'));
    await Promise.resolve();
    expect(exit).not.toHaveBeenCalled();
    expect(scheduler.pending).toBe(1);
    scheduler.advance(4_999);
    expect(exit).not.toHaveBeenCalled();
    scheduler.advance(1);
    expect(tellUser).toHaveBeenCalledOnce();
    expect(exit).toHaveBeenCalledExactlyOnceWith(1);
  });

  it('exits even when telling the player fails', async () => {
    const { proc, tellUser, exit } = setup();
    tellUser.mockImplementationOnce(() => {
      throw new Error('no display');
    });
    proc.emit('uncaughtException', new Error('x'));
    await vi.waitFor(() => expect(exit).toHaveBeenCalledExactlyOnceWith(1));
  });
});
