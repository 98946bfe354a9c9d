import { createCipheriv, createDecipheriv, type KeyObject } from 'node:crypto';
import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../endpoint/datagramSocket';
import type { SessionKeys } from './keyAgreement';
import { ReplayWindow } from './replayWindow';
import { deriveKeys, type DirectionalKeys, type SecureRole, type SecureTranscript } from './x25519Keys';

/** Keys from the CPace agreement (keyAgreement.ts): the path's datagram keys, by role. */
export interface AgreedKeyOptions {
  readonly sessionKeys: SessionKeys;
  readonly role: SecureRole;
  /** Replay window, datagrams; default 1024. */
  readonly replayWindow?: number;
}

/** Keys from an unauthenticated X25519 exchange (x25519Keys.ts), until every caller uses the agreement. */
export interface X25519KeyOptions {
  readonly ownPrivate: KeyObject;
  /** The peer's base64url X25519 key (check it against the fingerprint in the code first). */
  readonly peerPublic: string;
  readonly transcript: SecureTranscript;
  readonly role: SecureRole;
  /** Replay window, datagrams; default 1024. */
  readonly replayWindow?: number;
}

/** Options of {@link secureSocket}. */
export type SecureSocketOptions = AgreedKeyOptions | X25519KeyOptions;

function keysOf(options: SecureSocketOptions): DirectionalKeys {
  if ('sessionKeys' in options) {
    const { hostToGuest, guestToHost } = options.sessionKeys;
    return options.role === 'host'
      ? { send: hostToGuest, receive: guestToHost }
      : { send: guestToHost, receive: hostToGuest };
  }
  return deriveKeys(options.ownPrivate, options.peerPublic, options.transcript, options.role);
}

/** What a secure socket did with datagrams so far. */
export interface SecureCounters {
  sealed: number;
  opened: number;
  /** Dropped: too short to hold a header and tag. */
  malformed: number;
  /** Dropped: failed authentication (forged, damaged, another key). */
  forged: number;
  /** Dropped: a counter already seen or older than the window. */
  replayed: number;
}

/** A DatagramSocket whose every datagram is sealed with ChaCha20-Poly1305 and checked on arrival. */
export interface SecureSocket extends DatagramSocket {
  readonly counters: Readonly<SecureCounters>;
}

/** Bytes a sealed datagram adds: the 8-byte counter in front and the 16-byte tag behind. */
export const SECURE_OVERHEAD = 24;
const HEADER = 8;
const TAG = 16;
const TWO_32 = 2 ** 32;
// Counters stay exact JavaScript numbers; 2^53 datagrams are centuries of play.
const MAX_COUNTER = Number.MAX_SAFE_INTEGER;

/**
 * Wraps `inner` (one peer's path) in end-to-end AEAD: one key per direction, from the CPace agreement (or
 * X25519 + HKDF over the transcript); nonce = 32 zero bits ‖ the 64-bit send counter, which travels in clear (and is authenticated)
 * in front. Arrivals that are short, forged or replayed are counted and dropped, never thrown or delivered.
 */
export function secureSocket(inner: DatagramSocket, options: SecureSocketOptions): SecureSocket {
  const keys = keysOf(options);
  return new SealedSocket(inner, keys.send, keys.receive, new ReplayWindow(options.replayWindow ?? 1024));
}

class SealedSocket implements SecureSocket {
  readonly counters: SecureCounters = { sealed: 0, opened: 0, malformed: 0, forged: 0, replayed: 0 };
  private sendCounter = 0;
  private readonly nonce = Buffer.alloc(12);

  constructor(
    private readonly inner: DatagramSocket,
    private readonly sendKey: Buffer,
    private readonly receiveKey: Buffer,
    private readonly window: ReplayWindow,
  ) {}

  get address(): string {
    return this.inner.address;
  }
  get port(): number {
    return this.inner.port;
  }
  get recvBufferSize(): number {
    return this.inner.recvBufferSize;
  }
  get sendBufferSize(): number {
    return this.inner.sendBufferSize;
  }

  send(datagram: Uint8Array, port?: number, address?: string): boolean {
    if (this.sendCounter > MAX_COUNTER) return true; // never reuse a nonce: this path is spent
    const counter = this.sendCounter++;
    const sealed = Buffer.allocUnsafe(HEADER + datagram.length + TAG);
    sealed.writeUInt32BE(Math.floor(counter / TWO_32), 0);
    sealed.writeUInt32BE(counter >>> 0, 4);
    const cipher = createCipheriv('chacha20-poly1305', this.sendKey, this.nonceFor(sealed), { authTagLength: TAG });
    cipher.setAAD(sealed.subarray(0, HEADER), { plaintextLength: datagram.length });
    const body = cipher.update(datagram);
    cipher.final();
    body.copy(sealed, HEADER);
    cipher.getAuthTag().copy(sealed, HEADER + datagram.length);
    this.counters.sealed += 1;
    this.inner.send(sealed, port, address);
    return true; // `datagram` was consumed into `sealed` before returning
  }

  listen(handlers: DatagramHandlers): void {
    this.inner.listen({
      message: (datagram, from) => {
        const plain = this.open(datagram);
        if (plain) handlers.message(plain, from);
      },
      sendError: (error) => handlers.sendError(error),
      error: (error) => handlers.error(error),
    });
  }

  connect(port: number, host: string): Promise<DatagramSource> {
    return this.inner.connect(port, host);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private open(datagram: Uint8Array): Buffer | undefined {
    if (datagram.length < HEADER + TAG) {
      this.counters.malformed += 1;
      return undefined;
    }
    const bytes = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.length);
    const counter = bytes.readUInt32BE(0) * TWO_32 + bytes.readUInt32BE(4);
    if (counter > MAX_COUNTER || !this.window.fresh(counter)) {
      this.counters.replayed += 1;
      return undefined;
    }
    const bodyLength = bytes.length - HEADER - TAG;
    try {
      const decipher = createDecipheriv('chacha20-poly1305', this.receiveKey, this.nonceFor(bytes), {
        authTagLength: TAG,
      });
      decipher.setAAD(bytes.subarray(0, HEADER), { plaintextLength: bodyLength });
      decipher.setAuthTag(bytes.subarray(HEADER + bodyLength));
      const plain = decipher.update(bytes.subarray(HEADER, HEADER + bodyLength));
      decipher.final(); // throws when the tag does not authenticate
      this.window.accept(counter);
      this.counters.opened += 1;
      return plain;
    } catch {
      this.counters.forged += 1;
      return undefined;
    }
  }

  private nonceFor(header: Buffer): Buffer {
    this.nonce.fill(0, 0, 4);
    header.copy(this.nonce, 4, 0, HEADER);
    return this.nonce;
  }
}
