import type { NetworkCheckReport } from '../../shared/netcheck/report';

/** The room this app has open while the check runs. */
export interface OpenRoomInfo {
  readonly port: number;
  readonly roomName: string;
}

/**
 * The network check binds the game port to test it, which fails while our own room holds it. That is not a
 * problem, so the row says the room uses the port and the "port not available" problem is dropped. Pure.
 */
export function accountForOpenRoom(report: NetworkCheckReport, room: OpenRoomInfo | null): NetworkCheckReport {
  if (!room) return report;
  const heldByRoom = report.ports.find(
    (row) => row.role === 'game' && !row.ok && row.code === 'EADDRINUSE' && row.port === room.port,
  );
  if (!heldByRoom) return report;
  const ports = report.ports.map((row) =>
    row === heldByRoom
      ? {
          ...row,
          ok: true,
          boundPort: room.port,
          code: null,
          message:
            `UDP port ${room.port} is in use by your open room “${room.roomName}”, so it works; ` +
            'the check cannot test it again while the room is open.',
        }
      : row,
  );
  const advice = [
    {
      id: 'open-room',
      severity: 'info' as const,
      title: 'Your room is open',
      detail:
        `“${room.roomName}” is using UDP port ${room.port}, so that port was not tested again. ` +
        'Close the room and run the check again to test it.',
      commands: [],
    },
    ...report.advice.filter((item) => item.id !== 'port-game'),
  ];
  return { ...report, ports, advice, ok: !advice.some((item) => item.severity === 'problem') };
}
