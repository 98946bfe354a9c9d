import { describe, expect, it } from 'vitest';
import { describeReceiveBuffer, formatBytes, GOOD_RECEIVE_BUFFER } from '../../../main/netcheck/receiveBuffer';

const MiB = 1024 * 1024;

describe('formatBytes', () => {
  it('uses B, KiB and MiB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(212992)).toBe('208 KiB');
    expect(formatBytes(4 * MiB)).toBe('4 MiB');
    expect(formatBytes(1.5 * MiB)).toBe('1.5 MiB');
  });
});

describe('describeReceiveBuffer', () => {
  it('halves Linux’s doubled figure: the default rmem_max (208 KiB usable) is clamped', () => {
    const report = describeReceiveBuffer(4 * MiB, 425984, 'linux');
    expect(report).toMatchObject({ requestedBytes: 4 * MiB, grantedBytes: 425984, status: 'clamped' });
    expect(report.message).toBe(
      'The OS granted only 208 KiB of receive buffer (reported as 416 KiB) of the 4 MiB asked for ' +
        '(net.core.rmem_max caps it). A busy host may drop bursts of packets.',
    );
  });

  it('a Linux host with a raised limit is fine', () => {
    expect(describeReceiveBuffer(4 * MiB, 8 * MiB, 'linux')).toMatchObject({ status: 'ok' });
    // 2 MiB reported = 1 MiB usable: just enough.
    expect(describeReceiveBuffer(4 * MiB, 2 * MiB, 'linux').status).toBe('ok');
    expect(describeReceiveBuffer(4 * MiB, 2 * MiB - 2, 'linux').status).toBe('clamped');
  });

  it('takes other systems at their word', () => {
    expect(describeReceiveBuffer(4 * MiB, GOOD_RECEIVE_BUFFER, 'win32').status).toBe('ok');
    const mac = describeReceiveBuffer(4 * MiB, 512 * 1024, 'darwin');
    expect(mac.status).toBe('clamped');
    expect(mac.message).toContain('kern.ipc.maxsockbuf');
  });

  it('asking for less than the threshold only needs what was asked', () => {
    expect(describeReceiveBuffer(256 * 1024, 256 * 1024, 'win32').status).toBe('ok');
  });

  it('reports unknown when no socket could be measured', () => {
    expect(describeReceiveBuffer(4 * MiB, null, 'linux')).toMatchObject({ status: 'unknown', grantedBytes: null });
    expect(describeReceiveBuffer(4 * MiB, 0, 'linux')).toMatchObject({ status: 'unknown', grantedBytes: null });
  });
});
