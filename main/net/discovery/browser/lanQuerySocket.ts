import dgram, { type RemoteInfo, type Socket } from 'node:dgram';
import type { Logger } from '../../../base/logger';
import { DISCOVERY } from '../advert/discoveryProtocol';
import { parseDiscoveryReply, type DiscoveryAdvert } from '../advert/discoveryReply';
import { sendDatagram, type SendFailure } from '../sendDatagram';

/** Options for {@link openLanQuerySocket}. */
export interface LanQuerySocketOptions {
  /** Default 0.0.0.0 (never an interface IP: the OS must choose the egress per destination). */
  readonly bindAddress?: string;
  /** Called for every well-formed reply from an allowed source. */
  readonly onReply: (advert: DiscoveryAdvert, from: RemoteInfo) => void;
  /** Which reply sources are believed; replies from others are dropped and counted. */
  readonly isAllowedSource: (address: string) => boolean;
  readonly logger: Logger;
  readonly createSocket?: () => Socket;
  readonly platform?: NodeJS.Platform;
}

/** Counters for replies received and refused. */
export interface LanQueryStats {
  replies: number;
  ignoredMalformed: number;
  ignoredForeignSource: number;
  sendErrors: number;
}

/** The searcher's own socket on an ephemeral port, so unicast replies come back to this process only. */
export interface LanQuerySocket {
  /** Sends `query` to every target on `port`; resolves with the destinations that failed (never rejects). */
  sendRound(query: Uint8Array, port: number, targets: readonly string[]): Promise<SendFailure[]>;
  stats(): Readonly<LanQueryStats>;
  close(): Promise<void>;
}

/** Binds the query socket (port 0) and enables broadcast inside the bind callback. */
export function openLanQuerySocket(options: LanQuerySocketOptions): Promise<LanQuerySocket> {
  const socket = options.createSocket?.() ?? dgram.createSocket('udp4');
  const stats: LanQueryStats = { replies: 0, ignoredMalformed: 0, ignoredForeignSource: 0, sendErrors: 0 };
  socket.on('message', (datagram, from) => {
    const advert = datagram.length <= DISCOVERY.MAX_DATAGRAM_BYTES ? parseDiscoveryReply(datagram) : undefined;
    if (!advert) {
      stats.ignoredMalformed += 1;
      return;
    }
    if (!options.isAllowedSource(from.address)) {
      stats.ignoredForeignSource += 1;
      return;
    }
    stats.replies += 1;
    try {
      options.onReply(advert, from);
    } catch (error) {
      options.logger.warn('discovery reply handler threw', { error: String(error) });
    }
  });
  let closed = false;
  return new Promise((resolve, reject) => {
    const onBindError = (error: Error) => {
      closed = true;
      socket.close();
      reject(new Error(`cannot open the LAN discovery query socket: ${error.message}`, { cause: error }));
    };
    socket.once('error', onBindError);
    socket.bind(0, options.bindAddress ?? '0.0.0.0', () => {
      socket.off('error', onBindError);
      socket.on('error', (error) => options.logger.warn('discovery query socket error', { error: error.message }));
      try {
        socket.setBroadcast(true);
      } catch (error) {
        options.logger.warn('setBroadcast failed on the query socket', { error: String(error) });
      }
      resolve({
        async sendRound(query, port, targets) {
          if (closed) return [];
          const results = await Promise.all(
            targets.map((target) => sendDatagram(socket, query, port, target, options.platform)),
          );
          const failures = results.filter((failure): failure is SendFailure => failure !== undefined);
          for (const failure of failures) {
            stats.sendErrors += 1;
            options.logger.warn('LAN discovery query could not be sent', { ...failure });
          }
          return failures;
        },
        stats: () => ({ ...stats }),
        close: () =>
          new Promise<void>((done) => {
            if (closed) return done();
            closed = true;
            socket.close(() => done());
          }),
      });
    });
  });
}
