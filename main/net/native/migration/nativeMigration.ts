import type { TrafficCounters } from '../../v1/stats';
import { encodePathFrame } from '../nativeFrames';
import type { PacketSealer } from '../packetProtection';
import { PathValidator, type PathAddress } from './pathValidator';
import { Frame, Native } from '../nativeWire';
import { PacketWriter } from '../packetWriter';

/** A datagram carrying one PATH_CHALLENGE frame, bytes. */
const CHALLENGE_DATAGRAM = Native.HEADER_SIZE + 1 + Native.PATH_DATA + Native.TAG_SIZE;

/** How a connection reaches addresses other than its own, and tells its owner it moved. */
export interface PathMigration {
  /** Sends a datagram (a path challenge) to an address that is not the connection's yet. */
  sendTo(datagram: Uint8Array, path: PathAddress): boolean | void;
  /** The peer proved it receives at `path`: the owner sends there from now on. */
  moved(path: PathAddress): void;
  /** Random bytes for path challenges (default: the OS CSPRNG, supplied by the owner). */
  random: (size: number) => Uint8Array;
}

/**
 * One native connection's side of migration (see README, Migration): challenges to the addresses its peer's
 * datagrams came from, numbered and tagged like every datagram, and the move once one is answered from there.
 */
export class NativeMigration {
  private readonly paths: PathValidator;
  /** Sends path challenges to {@link target}. */
  private writer: PacketWriter | undefined;
  private target: PathAddress = { address: '', port: 0 };

  constructor(
    private readonly migration: PathMigration,
    private readonly token: bigint,
    private readonly mtu: number,
    private readonly sealer: PacketSealer,
    private readonly counters: TrafficCounters,
  ) {
    this.paths = new PathValidator(migration.random);
  }

  /** Addresses challenged and not yet proven. */
  get pending(): number {
    return this.paths.pending;
  }

  /** A datagram came from `path`: sends it a challenge when one is due (see PathValidator.heard). */
  heard(path: PathAddress, size: number, newest: boolean, now: number): void {
    const data = this.paths.heard(path, size, newest, now, CHALLENGE_DATAGRAM);
    if (!data) return;
    this.writer ??= new PacketWriter(
      this.token,
      this.mtu,
      (d) => {
        this.counters.countSent(d.length);
        return this.migration.sendTo(d, this.target) === true;
      },
      this.sealer,
    );
    this.target = { address: path.address, port: path.port };
    this.writer.append(encodePathFrame(Frame.PATH_CHALLENGE, data));
    this.writer.flush();
  }

  /** A PATH_RESPONSE came from `path`: true when it answers our challenge there, and the owner was told of the move. */
  answered(path: PathAddress, data: Uint8Array): boolean {
    if (!this.paths.answered(path, data)) return false;
    this.migration.moved({ address: path.address, port: path.port });
    return true;
  }
}
