import type { Logger } from '../../../base/logger';
import type { DatagramSource, OpenDatagramSocket } from '../../endpoint/datagramSocket';
import { openUdpDatagramSocket } from '../../endpoint/udpSocket';
import { DISCOVERY } from '../advert/discoveryProtocol';
import { parseDiscoveryReply, type DiscoveryAdvert } from '../advert/discoveryReply';
import { sendDatagram, type SendFailure } from '../sendDatagram';

/** Options for {@link openLanQuerySocket}. */
export interface LanQuerySocketOptions {
  /** Default 0.0.0.0 (never an interface IP: the OS must choose the egress per destination). */
  readonly bindAddress?: string;
  /** Called for every well-formed reply from an allowed source. */
  readonly onReply: (advert: DiscoveryAdvert, from: DatagramSource) => void;
  /** Which reply sources are believed; replies from others are dropped. */
  readonly isAllowedSource: (address: string) => boolean;
  /** Where a failed send or a throwing handler is reported; default: nowhere (the caller gets the failures). */
  readonly logger?: Logger;
  /** The socket seam; default a UDP socket. */
  readonly openSocket?: OpenDatagramSocket;
  readonly platform?: NodeJS.Platform;
}

/**
 * The one socket every discovery query goes out on (a browser's rounds, a one-shot search, a unicast probe): an
 * ephemeral port of the searcher's own, so unicast replies come back to this process only.
 */
export interface LanQuerySocket {
  /** Sends `query` to every target on `port`; resolves with the destinations that failed (never rejects). */
  sendRound(query: Uint8Array, port: number, targets: readonly string[]): Promise<SendFailure[]>;
  close(): Promise<void>;
}

/** Opens the query socket (port 0, broadcast allowed) through the socket seam. */
export async function openLanQuerySocket(options: LanQuerySocketOptions): Promise<LanQuerySocket> {
  const open = options.openSocket ?? openUdpDatagramSocket;
  const host = options.bindAddress ?? '0.0.0.0';
  let socket;
  try {
    socket = await open({ port: 0, host, recvBufferSize: 0, broadcast: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open the LAN discovery query socket: ${detail}`, { cause: error });
  }
  const { logger } = options;
  socket.listen({
    message: (datagram, from) => {
      const advert = datagram.length <= DISCOVERY.MAX_DATAGRAM_BYTES ? parseDiscoveryReply(datagram) : undefined;
      if (!advert || !options.isAllowedSource(from.address)) return;
      try {
        options.onReply(advert, { address: from.address, port: from.port });
      } catch (error) {
        logger?.warn('discovery reply handler threw', { error: String(error) });
      }
    },
    sendError: () => undefined, // each send's failure resolves its own sendRound
    error: (error) => logger?.warn('discovery query socket error', { error: error.message }),
  });
  let closed = false;
  return {
    async sendRound(query, port, targets) {
      if (closed) return [];
      const results = await Promise.all(
        targets.map((target) => sendDatagram(socket, query, port, target, options.platform)),
      );
      const failures = results.filter((failure): failure is SendFailure => failure !== undefined);
      for (const failure of failures) logger?.warn('LAN discovery query could not be sent', { ...failure });
      return failures;
    },
    async close() {
      if (closed) return;
      closed = true;
      await socket.close();
    },
  };
}
