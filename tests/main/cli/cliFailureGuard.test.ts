import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installCliFailureGuard, isNetworkFailure } from '../../../main/cli/cliFailureGuard';
import { BindError } from '../../../main/net/index';
import { RendezvousError, RendezvousErrorCode } from '../../../shared/rendezvous';

// What Node rejects with when a socket or a lookup fails: an Error naming its system call and code.
const systemError = (code: string, syscall: string) =>
  Object.assign(new Error(`${syscall} ${code} 203.0.113.7:3478`), { code, syscall, errno: -1 });

function guarded() {
  const proc = new EventEmitter();
  const lines: string[] = [];
  let stderr = '';
  const exits: number[] = [];
  installCliFailureGuard({
    program: 'lan-party-host',
    process: proc,
    log: (line) => lines.push(line),
    stderr: (text) => (stderr += text),
    exit: (code) => exits.push(code),
  });
  return { proc, lines, exits, stderr: () => stderr };
}

describe('installCliFailureGuard', () => {
  it.each([
    ['a socket error', systemError('ECONNRESET', 'read')],
    ['a failed lookup', systemError('ENOTFOUND', 'getaddrinfo')],
    [
      'a rendezvous away',
      new RendezvousError(RendezvousErrorCode.UNREACHABLE, 'The rendezvous service stopped answering.'),
    ],
    ['a port that could not be bound', new BindError(9000, '0.0.0.0', 'EADDRINUSE', 'in use')],
  ])('logs a rejection from %s and carries on', (_what, reason) => {
    const { proc, lines, exits, stderr } = guarded();
    proc.emit('unhandledRejection', reason);
    expect(lines).toEqual([`a network task failed, the room carries on: ${reason.message}`]);
    expect(exits).toEqual([]);
    expect(stderr()).toBe('');
  });

  it('ends the host on a rejection that is a bug, saying so on stderr and in the log', () => {
    const { proc, lines, exits, stderr } = guarded();
    proc.emit('unhandledRejection', new TypeError('room.close is not a function'));
    expect(exits).toEqual([1]);
    expect(stderr()).toMatch(/^lan-party-host: unexpected error \(a bug\), closing: TypeError: room\.close is not/);
    expect(lines).toEqual([stderr().trimEnd()]);
  });

  it('ends the host on an uncaught exception, even one with a system code', () => {
    const { proc, exits, stderr } = guarded();
    proc.emit('uncaughtException', systemError('EPIPE', 'write'));
    expect(exits).toEqual([1]);
    expect(stderr()).toMatch(/^lan-party-host: uncaught exception \(a bug\), closing: Error: write EPIPE/);
  });

  it('tells network failures from bugs by type, not by message', () => {
    expect(isNetworkFailure(new Error('read ECONNRESET'))).toBe(false);
    expect(isNetworkFailure('ECONNRESET')).toBe(false);
    expect(isNetworkFailure(undefined)).toBe(false);
    expect(isNetworkFailure(systemError('ECONNREFUSED', 'connect'))).toBe(true);
  });
});
