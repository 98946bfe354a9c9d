import { BindError, DEFAULT_RECV_BUFFER, openUdpDatagramSocket, type OpenDatagramSocket } from '../net/index';
import type { PortCheck } from '../../shared/netcheck/report';

/** Opens a socket through main/net's socket seam (UDP by default, a memory network or a stand-in in tests). */
export type OpenUdp = OpenDatagramSocket;

/** Which port is being checked: discovery shares its port (reuseAddr), the game port does not. */
export type PortRole = PortCheck['role'];

const ROLE_NAMES: Record<PortRole, string> = { discovery: 'LAN discovery', game: 'the game' };

/** A bind failure in words a player can act on. Pure. */
export function describeBindFailure(role: PortRole, port: number, bindAddress: string, code: string | null): string {
  const what = `UDP port ${port} (${ROLE_NAMES[role]})`;
  switch (code) {
    case 'EADDRINUSE':
      return role === 'game'
        ? `${what} is already in use by another program, or a LAN Party room is already open on it.`
        : `${what} is held by another program that does not share it, so LAN Party cannot hear searches.`;
    case 'EACCES':
      return `Not allowed to listen on ${what}: permission denied (a security policy, or a port below 1024 without administrator rights).`;
    case 'EADDRNOTAVAIL':
      return `Cannot listen on ${what}: ${bindAddress} is not an address of this machine.`;
    default:
      return `Could not listen on ${what}${code ? ` (${code})` : ''}.`;
  }
}

/** What a successful check keeps: the result row and the receive buffer the OS granted on that socket. */
export interface PortCheckOutcome {
  check: PortCheck;
  recvBufferSize: number | null;
}

/** Tries to bind the port as the app would, closes it again, and reports the outcome. Never rejects. */
export async function checkPort(
  role: PortRole,
  port: number,
  bindAddress: string,
  open: OpenUdp = openUdpDatagramSocket,
): Promise<PortCheckOutcome> {
  const base = { role, port, bindAddress };
  try {
    const opened = await open({
      port,
      host: bindAddress,
      recvBufferSize: DEFAULT_RECV_BUFFER,
      reuseAddr: role === 'discovery',
    });
    await opened.close();
    return {
      check: {
        ...base,
        ok: true,
        boundPort: opened.port,
        code: null,
        message: `LAN Party can listen on UDP port ${opened.port} (${ROLE_NAMES[role]}).`,
      },
      recvBufferSize: opened.recvBufferSize,
    };
  } catch (error) {
    const code = error instanceof BindError ? (error.code ?? null) : ((error as NodeJS.ErrnoException).code ?? null);
    const detail = code === null && error instanceof Error ? ` ${error.message}` : '';
    return {
      check: {
        ...base,
        ok: false,
        boundPort: null,
        code,
        message: describeBindFailure(role, port, bindAddress, code) + detail,
      },
      recvBufferSize: null,
    };
  }
}
