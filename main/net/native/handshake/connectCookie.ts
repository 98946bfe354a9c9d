/** Stateless connect challenge for the native handshake: rotating-secret HMAC cookies bound to the client endpoint. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Cookie layout: u32 big-endian slot ‖ first 16 bytes of the HMAC. */
export const CONNECT_COOKIE = { slotBytes: 4, macBytes: 16, length: 20, minSecretBytes: 16 } as const;

/** How `ConnectCookies` measures time and draws secrets (both injectable so tests are exact). */
export interface ConnectCookiesOptions {
  /** Length of one secret's slot in seconds (default 5); a cookie is accepted in its slot and the next. */
  readonly slotSeconds?: number;
  /** Current time in seconds. */
  readonly clock: () => number;
  /** A fresh secret of at least 16 bytes (default 32 bytes from the OS CSPRNG). */
  readonly randomSecret?: () => Uint8Array;
}

const isPort = (port: unknown): port is number =>
  typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 0xffff;

/** UTF-16 code units with a length prefix: lossless for any JS string, so distinct inputs never collide. */
function field(text: string): Buffer {
  const units = Buffer.from(text, 'utf16le');
  const out = Buffer.alloc(4 + units.byteLength);
  out.writeUInt32BE(units.byteLength, 0);
  units.copy(out, 4);
  return out;
}

/**
 * Issues and checks cookies that prove a client receives at its source address, without per-client state.
 * One secret per slot, created lazily by `issue`; only the current and previous slots' secrets are kept, so a cookie
 * lives at most 2 slots. Callers must pass addresses in one canonical form (e.g. as the socket reports them).
 */
export class ConnectCookies {
  private readonly slotSeconds: number;
  private readonly randomSecret: () => Uint8Array;
  private readonly secrets = new Map<number, Uint8Array>();

  constructor(private readonly options: ConnectCookiesOptions) {
    this.slotSeconds = options.slotSeconds ?? 5;
    if (!(Number.isFinite(this.slotSeconds) && this.slotSeconds > 0)) {
      throw new RangeError(`ConnectCookies: slotSeconds must be a positive number, got ${options.slotSeconds}`);
    }
    this.randomSecret = options.randomSecret ?? (() => randomBytes(32));
  }

  /** A 20-byte cookie for this client endpoint and bind string (e.g. the canonical offer), valid for ≤ 2 slots. */
  issue(address: string, port: number, bind: string): Uint8Array {
    if (typeof address !== 'string' || typeof bind !== 'string')
      throw new TypeError('address and bind must be strings');
    if (!isPort(port)) throw new RangeError(`port must be an integer 0-65535, got ${port}`);
    const slot = this.currentSlot();
    if (slot === undefined) throw new RangeError('ConnectCookies: clock returned a non-finite or negative time');
    let secret = this.secrets.get(slot);
    if (secret === undefined) {
      secret = this.randomSecret();
      if (!(secret instanceof Uint8Array) || secret.byteLength < CONNECT_COOKIE.minSecretBytes) {
        throw new RangeError(`ConnectCookies: randomSecret must return >= ${CONNECT_COOKIE.minSecretBytes} bytes`);
      }
      this.secrets.set(slot, secret);
    }
    const cookie = Buffer.alloc(CONNECT_COOKIE.length);
    cookie.writeUInt32BE(slot, 0);
    this.mac(secret, slot, address, port, bind).copy(cookie, CONNECT_COOKIE.slotBytes);
    return new Uint8Array(cookie);
  }

  /** Whether `cookie` was issued for exactly this endpoint and bind string in the current or previous slot. */
  verify(cookie: Uint8Array | undefined, address: string, port: number, bind: string): boolean {
    try {
      if (!(cookie instanceof Uint8Array) || cookie.byteLength !== CONNECT_COOKIE.length) return false;
      if (typeof address !== 'string' || typeof bind !== 'string' || !isPort(port)) return false;
      const current = this.currentSlot();
      if (current === undefined) return false;
      const slot = Buffer.from(cookie.buffer, cookie.byteOffset, cookie.byteLength).readUInt32BE(0);
      if (slot !== current && slot !== (current - 1) >>> 0) return false;
      const secret = this.secrets.get(slot);
      if (secret === undefined) return false; // nothing was issued in that slot
      const expected = this.mac(secret, slot, address, port, bind);
      return timingSafeEqual(expected, cookie.subarray(CONNECT_COOKIE.slotBytes));
    } catch {
      return false; // hostile inputs (e.g. throwing getters or proxies) are simply not valid cookies
    }
  }

  /** The current slot (u32), discarding secrets of every other slot but the previous; undefined for a bad clock. */
  private currentSlot(): number | undefined {
    const now = this.options.clock();
    if (!(Number.isFinite(now) && now >= 0)) return undefined;
    const slot = Math.floor(now / this.slotSeconds) >>> 0;
    const previous = (slot - 1) >>> 0;
    for (const kept of this.secrets.keys()) {
      if (kept !== slot && kept !== previous) this.secrets.delete(kept);
    }
    return slot;
  }

  private mac(secret: Uint8Array, slot: number, address: string, port: number, bind: string): Buffer {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(slot, 0);
    head.writeUInt32BE(port, 4);
    const hmac = createHmac('sha256', secret).update(head).update(field(address)).update(field(bind));
    return hmac.digest().subarray(0, CONNECT_COOKIE.macBytes);
  }
}

/** Cookie bytes as unpadded base64url text, for the JSON offer and challenge. */
export function encodeCookie(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** Strictly parses cookie text: undefined unless a canonical unpadded base64url string of exactly 20 bytes. */
export function decodeCookie(text: unknown): Uint8Array | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{27}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Re-encoding rejects non-zero trailing bits, so each cookie has exactly one accepted spelling.
  if (bytes.byteLength !== CONNECT_COOKIE.length || bytes.toString('base64url') !== text) return undefined;
  return new Uint8Array(bytes); // a standalone copy, not a view into Buffer's shared pool
}
