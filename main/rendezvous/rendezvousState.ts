import type { RendezvousErrorCode, ServiceMessageBody, TurnGrant } from '../../shared/rendezvous';
import type { Logger } from '../base/logger';
import type { AddressKeys } from './addressKeys';
import type { RendezvousServiceLimits } from './rendezvousServiceLimits';

/** One client connection as the service sees it (a WebSocket in production, a fake in unit tests). */
export interface RendezvousPeer {
  /** The source address (the proxy's forwarded one behind a trusted proxy), the key for rate limits. */
  readonly address: string;
  send(message: ServiceMessageBody): void;
  /** Ends the connection (WebSocket close codes: 1008 policy, 4000 replaced, 4001 idle). */
  close(code: number, reason: string): void;
}

/** The service's view of one connection. */
export interface Connection {
  readonly peer: RendezvousPeer;
  /** What its limits count it under (its IPv4 address or IPv6 /64, and the /24 or /56 around it). */
  readonly keys: AddressKeys;
  hosting: Room | null;
  readonly joins: Set<Join>;
  strikes: number;
  limitedInARow: number;
  /** scheduler.now() of the last message received (or of the connection). */
  lastHeard: number;
  open: boolean;
}

/** A registered room (or one in its host's grace period). */
export interface Room {
  readonly id: string;
  readonly createdAt: number;
  /** Who registered it first: the room counts against this address and prefix until it is gone. */
  readonly owner: AddressKeys;
  host: Connection | null;
  hostLeftAt: number;
  readonly joins: Map<string, Join>;
  /** Join ids that ended lately, so the host's late replies to them are dropped without a strike. */
  readonly ended: Set<string>;
  /** Per guest address key: joins the host answered that have not got in (join id → when answered). */
  readonly unproven: Map<string, Map<string, number>>;
}

/** One guest's join of one room. */
export interface Join {
  readonly id: string;
  readonly room: Room;
  readonly guest: Connection;
  createdAt: number;
  /** scheduler.now() of the host's answer; undefined while pending. */
  answeredAt: number | undefined;
  /** The guest sent its key confirmation. */
  confirmed: boolean;
  /** The host accepted the confirmation (the code was proved): signalling may go on, TURN was granted. */
  accepted: boolean;
  hostSignals: number;
  guestSignals: number;
}

/** An error to tell a connection. */
export interface Refusal {
  readonly code: RendezvousErrorCode;
  readonly message: string;
}

/** What the parts of the service share: bounds, clocks and the ways to answer a connection. */
export interface ServiceContext {
  readonly limits: RendezvousServiceLimits;
  readonly logger: Logger;
  now(): number;
  send(conn: Connection, message: ServiceMessageBody): void;
  fail(conn: Connection, refusal: Refusal, joinId?: string): void;
  /** Like fail, and counts against the connection (closing it after too many). */
  strike(conn: Connection, refusal: Refusal, joinId?: string): void;
  /** Forgets a connection (its joins end, its room's host leaves) and closes it. */
  dropAndClose(conn: Connection, code: number, reason: string): void;
  /**
   * Fresh TURN credentials for one side of a join (null: none minted, or over the caps): its guest when the host
   * answers, its host when it accepts.
   */
  turnGrant(join: Join, side: 'guest' | 'host'): TurnGrant | null;
}
