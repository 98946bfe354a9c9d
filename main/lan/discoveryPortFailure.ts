/**
 * Why the LAN search could not start, with what to do: a busy discovery port is named with the fix (close the
 * other program, or join by code); anything else points to the Network check. Pure.
 */
export function discoveryPortFailure(port: number, error: unknown): string {
  // The discovery registry wraps the bind error, keeping it as the cause.
  const errno = error as (NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }) | undefined;
  const code = errno?.code ?? errno?.cause?.code;
  if (code === 'EADDRINUSE') {
    return (
      `UDP port ${port}, which LAN Party uses to find rooms, is taken by another program on this computer. ` +
      'Close that program (often another game server or LAN tool) and press Try again, or join with a room code.'
    );
  }
  if (code === 'EACCES') {
    return (
      `LAN Party is not allowed to use UDP port ${port} to find rooms. Let LAN Party through the firewall and ` +
      'press Try again, or join with a room code.'
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return `Could not search the network: ${reason}. Run the Network check to see why.`;
}
