import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { BindError } from '../net/index';

/** How the firewall is told to let players in, per `process.platform`, in one or two sentences. */
export function firewallTip(platform: string, port: number): string {
  switch (platform) {
    case 'win32':
      return (
        'In Windows Security › Firewall & network protection › Allow an app through firewall, tick Private for ' +
        'LAN Party, and make sure your network is set to Private.'
      );
    case 'darwin':
      return 'If the macOS firewall is on, allow incoming connections for LAN Party in System Settings › Network › Firewall.';
    case 'linux':
      return `If a firewall is on, open the port: sudo ufw allow ${port}/udp (or with firewalld: sudo firewall-cmd --add-port=${port}/udp).`;
    default:
      return `Allow UDP port ${port} through your firewall.`;
  }
}

/** What went wrong opening a room, for {@link describeHostFailure}. */
export interface HostFailureContext {
  /** The port we tried to bind. */
  readonly port: number;
  readonly platform: string;
}

/**
 * Turns a failure to open a room into an IpcError a player can act on: what happened and what to do
 * (another port, or the firewall). Pure.
 */
export function describeHostFailure(error: unknown, { port, platform }: HostFailureContext): IpcError {
  const code = error instanceof BindError ? error.code : (error as NodeJS.ErrnoException | undefined)?.code;
  const another = port >= 65535 ? port - 1 : port + 1;
  switch (code) {
    case 'EADDRINUSE':
      return new IpcError(
        IpcErrorCode.FAILED_PRECONDITION,
        `UDP port ${port} is already in use by another program or another LAN Party room. ` +
          `Choose another port (for example ${another}), or leave the port empty to use a free one.`,
      );
    case 'EACCES':
      return new IpcError(
        IpcErrorCode.PERMISSION_DENIED,
        port < 1024
          ? `LAN Party is not allowed to open UDP port ${port}: ports below 1024 need administrator rights. ` +
              'Choose a port above 1024, such as 9000.'
          : `LAN Party is not allowed to open UDP port ${port}. Choose another port, or let LAN Party through ` +
              `the firewall. ${firewallTip(platform, port)}`,
      );
    case 'EADDRNOTAVAIL':
      return new IpcError(
        IpcErrorCode.FAILED_PRECONDITION,
        'The network address LAN Party is set to listen on does not belong to this computer. ' +
          'Reconnect to the network and try again.',
      );
    default:
      return new IpcError(
        IpcErrorCode.UNAVAILABLE,
        `Could not open a room on UDP port ${port}${code ? ` (${code})` : ''}. Try another port, or run the ` +
          'Network check from the home screen.',
      );
  }
}
