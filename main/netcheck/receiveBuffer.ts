import type { ReceiveBufferReport } from '../../shared/netcheck/report';

/** Below this usable size a busy host may drop bursts of datagrams (the Linux default ~208 KiB holds ~256). */
export const GOOD_RECEIVE_BUFFER = 1024 * 1024;

/** Bytes as KiB/MiB, for messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

/**
 * Judges the receive buffer the OS granted. Linux reports double the usable size (SO_RCVBUF bookkeeping), so
 * its figure is halved before comparing; it is "clamped" when less than {@link GOOD_RECEIVE_BUFFER} (or less
 * than asked for, if less was asked) is usable. Pure.
 */
export function describeReceiveBuffer(
  requestedBytes: number,
  grantedBytes: number | null,
  platform: string,
): ReceiveBufferReport {
  if (grantedBytes === null || grantedBytes <= 0) {
    return {
      requestedBytes,
      grantedBytes: null,
      status: 'unknown',
      message: 'Could not read the UDP receive buffer size (no socket could be opened).',
    };
  }
  const usable = platform === 'linux' ? Math.floor(grantedBytes / 2) : grantedBytes;
  const enough = Math.min(requestedBytes, GOOD_RECEIVE_BUFFER);
  const granted = `${formatBytes(usable)} of receive buffer${platform === 'linux' ? ` (reported as ${formatBytes(grantedBytes)})` : ''}`;
  if (usable >= enough) {
    return { requestedBytes, grantedBytes, status: 'ok', message: `The OS granted ${granted}.` };
  }
  const cap =
    platform === 'linux'
      ? ' (net.core.rmem_max caps it)'
      : platform === 'darwin'
        ? ' (kern.ipc.maxsockbuf caps it)'
        : '';
  return {
    requestedBytes,
    grantedBytes,
    status: 'clamped',
    message:
      `The OS granted only ${granted} of the ${formatBytes(requestedBytes)} asked for${cap}. ` +
      'A busy host may drop bursts of packets.',
  };
}
