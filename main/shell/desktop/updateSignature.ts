import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * The update feed's own signature, checked before anything is downloaded or installed on every platform
 * (electron-updater checks Windows code signatures only, and skips even that without a publisher name).
 * The maintainer signs each latest*.yml with `scripts/signUpdate.ts`, which appends `lanPartyExpires:` and
 * `lanPartySignature:`: Ed25519 over {@link updateMetadataBytes}, which covers the version, the release date, the
 * expiry and every file's name, size and SHA-512, so a downloaded file that hashes to a signed SHA-512 is one the
 * maintainer signed. The expiry makes the feed fresh: an old signed feed (a release since superseded, still newer
 * than some installed app) replayed by whoever sits on the path stops being accepted once it expires, so the
 * maintainer re-signs the current feed before then.
 */

/** The fields of electron-updater's UpdateInfo that the signature covers. */
export interface SignedUpdateInfo {
  readonly version: string;
  /** A string in electron-builder's files; YAML parsers may hand an unquoted one over as a Date. */
  readonly releaseDate?: string | Date;
  readonly files: readonly { readonly url: string; readonly sha512: string; readonly size?: number }[];
  /** Until when the signed metadata may be acted on (ISO 8601); a YAML parser may hand it over as a Date. */
  readonly lanPartyExpires?: unknown;
  readonly lanPartySignature?: unknown;
}

/** Code-unit order, the same in every locale (localeCompare is not: the signed bytes must not depend on it). */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A date field as the canonical string: a Date (YAML's reading of an unquoted one) in ISO form. */
const dateText = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value ?? ''));

/** The canonical bytes signed: a versioned JSON array, files sorted by name in code-unit order. */
export function updateMetadataBytes(info: SignedUpdateInfo): Buffer {
  const files = [...info.files]
    .sort((a, b) => byCodeUnits(String(a.url), String(b.url)))
    .map((file) => [file.url, file.size ?? null, file.sha512]);
  const fields = [info.version, dateText(info.releaseDate), dateText(info.lanPartyExpires)];
  return Buffer.from(JSON.stringify(['lan-party update v2', ...fields, files]), 'utf8');
}

/** Why signed metadata is stale at `nowMs` (wall clock), or undefined while its signed expiry is still ahead. */
export function updateStaleness(info: SignedUpdateInfo, nowMs: number): string | undefined {
  const text = dateText(info.lanPartyExpires);
  const expires = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(expires)) return 'its metadata carries no signed expiry';
  if (nowMs >= expires) return `its signed metadata expired on ${text} (an old feed replayed?)`;
  return undefined;
}

/** An Ed25519 public key from its raw 32 bytes in base64 (what updateSigningKey.ts holds). */
export function updatePublicKey(base64: string): KeyObject {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32) throw new RangeError('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}

/** The raw public key (base64) of a PEM private key, for updateSigningKey.ts. */
export function publicKeyOf(privatePem: string): string {
  const jwk = createPublicKey(createPrivateKey(privatePem)).export({ format: 'jwk' });
  return Buffer.from(jwk.x!, 'base64url').toString('base64');
}

/** The `lanPartySignature` value for `info`, its `lanPartyExpires` included (base64 Ed25519). */
export function signUpdateInfo(info: SignedUpdateInfo, privatePem: string): string {
  return sign(null, updateMetadataBytes(info), createPrivateKey(privatePem)).toString('base64');
}

/** True when `info.lanPartySignature` is a valid signature by `publicKey` over its metadata. */
export function updateSignatureValid(info: SignedUpdateInfo, publicKey: KeyObject): boolean {
  const signature = info.lanPartySignature;
  if (typeof signature !== 'string' || !/^[A-Za-z0-9+/]{86}==$/.test(signature)) return false;
  try {
    return verify(null, updateMetadataBytes(info), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

const SEMVER = /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]{1,64}))?(?:\+[0-9A-Za-z.-]{1,64})?$/;

/** Semantic-version order of `a` and `b` (negative, 0, positive); undefined when either is not a version. */
export function compareVersions(a: string, b: string): number | undefined {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!x || !y) return undefined;
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return d;
  }
  const [p, q] = [x[4], y[4]];
  if (p === q) return 0;
  if (p === undefined) return 1; // a release sorts after its pre-releases
  if (q === undefined) return -1;
  const [ps, qs] = [p.split('.'), q.split('.')];
  for (let i = 0; i < Math.max(ps.length, qs.length); i++) {
    if (ps[i] === undefined) return -1;
    if (qs[i] === undefined) return 1;
    const [m, n] = [ps[i]!, qs[i]!];
    if (m === n) continue;
    const [mNum, nNum] = [/^\d+$/.test(m), /^\d+$/.test(n)];
    if (mNum && nNum) return Number(m) - Number(n);
    if (mNum !== nNum) return mNum ? -1 : 1;
    return m < n ? -1 : 1;
  }
  return 0;
}
