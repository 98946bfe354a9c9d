/** The two sides of a refused join: each app's version (when known) and lobby protocol. */
export interface VersionSides {
  readonly hostApp: string | undefined;
  readonly hostProtocol: number | undefined;
  readonly ourApp: string | undefined;
  readonly ourProtocol: number;
}

const SEMVER = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Orders two versions like semver (a pre-release before its release); null when either is not a version. */
export function compareAppVersions(a: string, b: string): number | null {
  const x = SEMVER.exec(a.trim());
  const y = SEMVER.exec(b.trim());
  if (!x || !y) return null;
  for (let i = 1; i <= 3; i += 1) {
    const diff = Number(x[i]) - Number(y[i]);
    if (diff !== 0) return Math.sign(diff);
  }
  const [preX, preY] = [x[4], y[4]];
  if (preX === preY) return 0;
  if (preX === undefined) return 1;
  if (preY === undefined) return -1;
  return comparePreRelease(preX.split('.'), preY.split('.'));
}

// Semver's pre-release order: numeric identifiers numerically and before alphanumeric ones, then the longer list.
function comparePreRelease(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const [p, q] = [a[i] ?? '', b[i] ?? ''];
    if (p === q) continue;
    const [pNum, qNum] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (pNum && qNum) return Math.sign(Number(p) - Number(q));
    if (pNum !== qNum) return pNum ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/** Which side runs the older app: the protocol decides when both are known, else the app versions. */
function olderSide(sides: VersionSides): 'host' | 'guest' | null {
  if (sides.hostProtocol !== undefined && sides.hostProtocol !== sides.ourProtocol) {
    return sides.hostProtocol < sides.ourProtocol ? 'host' : 'guest';
  }
  if (sides.hostApp === undefined || sides.ourApp === undefined) return null;
  const order = compareAppVersions(sides.hostApp, sides.ourApp);
  if (order === null || order === 0) return null;
  return order < 0 ? 'host' : 'guest';
}

/**
 * The player-facing refusal for a version mismatch: names both versions and which side must update, e.g.
 * "The host runs LAN Party 1.3.0, you run 1.2.0: update your app." Falls back to a general sentence when the
 * host did not say its version (an older host) or the versions cannot be ordered.
 */
export function versionMismatchMessage(sides: VersionSides): string {
  const older = olderSide(sides);
  const yours = sides.ourApp ?? 'another version';
  if (sides.hostApp !== undefined && older !== null) {
    const fix = older === 'guest' ? 'update your app' : 'update the host’s app';
    return `The host runs LAN Party ${sides.hostApp}, you run ${yours}: ${fix}.`;
  }
  if (older === 'guest') return `The host runs a newer LAN Party than yours (${yours}): update your app.`;
  if (older === 'host') return `The host runs an older LAN Party than yours (${yours}): update the host’s app.`;
  const known = sides.hostApp !== undefined ? ` (the host runs ${sides.hostApp}, you run ${yours})` : '';
  return `The host runs a different LAN Party version${known}. Update both to the same version.`;
}
