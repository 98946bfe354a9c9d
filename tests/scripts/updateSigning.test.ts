import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { signedYaml } from '../../scripts/signUpdate';
import { updateFeedProblem } from '../../scripts/updateFeedProblem';
import { scriptArgs } from '../support/scriptArgs';
import {
  compareVersions,
  updatePublicKey,
  updateMetadataBytes,
  updateSignatureValid,
  updateStaleness,
  type SignedUpdateInfo,
} from '../../main/shell/desktop/updateSignature';

const dir = mkdtempSync(join(tmpdir(), 'lp-sign-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tsx = ([script, ...args]: [string, ...string[]], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [...scriptArgs(script), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });

const LATEST = `version: 1.3.0
files:
  - url: lan-party-1.3.0-linux-x86_64.AppImage
    sha512: c2lnbmVkIGZpbGU=
    size: 1000
  - url: lan-party-1.3.0-linux-arm64.AppImage
    sha512: YXJtIGZpbGU=
    size: 1001
path: lan-party-1.3.0-linux-x86_64.AppImage
sha512: c2lnbmVkIGZpbGU=
releaseDate: '2026-12-04T00:00:00.000Z'
`;

describe('scripts/signUpdate.ts', () => {
  it('keygen writes a private key and prints the public key; sign appends a signature the app accepts', () => {
    const keyPath = join(dir, 'update-key.pem');
    const keygen = tsx(['scripts/signUpdate.ts', 'keygen', keyPath]);
    expect(keygen.status, keygen.stderr).toBe(0);
    const publicKey = /UPDATE_SIGNING_KEY = '([A-Za-z0-9+/=]{44})'/.exec(keygen.stdout)![1]!;
    expect(tsx(['scripts/signUpdate.ts', 'keygen', keyPath]).status).toBe(1); // never overwrites a key
    const yml = join(dir, 'latest-linux.yml');
    writeFileSync(yml, LATEST);
    const sign = tsx(['scripts/signUpdate.ts', 'sign', keyPath, '--valid-days', '7', yml]);
    expect(sign.status, sign.stderr).toBe(0);
    const text = readFileSync(yml, 'utf8');
    const info = load(text) as SignedUpdateInfo;
    const key = updatePublicKey(publicKey);
    expect(updateSignatureValid(info, key)).toBe(true);
    // Fresh for the seven days asked, then stale.
    const expires = Date.parse(String(info.lanPartyExpires));
    expect(Math.abs(expires - (Date.now() + 7 * 86_400_000))).toBeLessThan(120_000);
    expect(updateStaleness(info, expires - 1)).toBeUndefined();
    expect(updateStaleness(info, expires)).toMatch(/expired/);
    // Signing again replaces the lines instead of stacking second ones.
    const again = signedYaml(text, yml, readFileSync(keyPath, 'utf8'), new Date(expires));
    expect(again.match(/lanPartySignature:/g)).toHaveLength(1);
    expect(again.match(/lanPartyExpires:/g)).toHaveLength(1);
    // Any covered field changed: the signature no longer holds.
    const files = info.files.map((file, i) => (i === 1 ? { ...file, sha512: 'ZXZpbA==' } : file));
    for (const changed of [
      { ...info, version: '1.3.1' },
      { ...info, files },
      { ...info, releaseDate: 'x' },
      { ...info, lanPartyExpires: '2099-01-01T00:00:00.000Z' },
    ]) {
      expect(updateSignatureValid(changed, key)).toBe(false);
    }
  });

  it('refuses a yml that is not electron-builder metadata', () => {
    const keyPath = join(dir, 'k2.pem');
    expect(tsx(['scripts/signUpdate.ts', 'keygen', keyPath]).status).toBe(0);
    const yml = join(dir, 'bad.yml');
    writeFileSync(yml, 'hello: world\n');
    const sign = tsx(['scripts/signUpdate.ts', 'sign', keyPath, yml]);
    expect(sign.status).toBe(1);
    expect(sign.stderr).toContain('no version or no files');
  });
});

describe('the signed bytes', () => {
  const info: SignedUpdateInfo = {
    version: '1.3.0',
    releaseDate: '2026-12-04T00:00:00.000Z',
    lanPartyExpires: '2027-01-03T00:00:00.000Z',
    files: [
      { url: 'a.AppImage', sha512: 'c2lnbmVkIGZpbGU=', size: 1000 },
      { url: 'B.AppImage', sha512: 'YXJtIGZpbGU=', size: 1001 },
      { url: 'ä.AppImage', sha512: 'ZXZpbA==' },
    ],
  };

  it('are this exact string (a fixed vector: any change to the format breaks every signature in the field)', () => {
    expect(updateMetadataBytes(info).toString('utf8')).toBe(
      '["lan-party update v2","1.3.0","2026-12-04T00:00:00.000Z","2027-01-03T00:00:00.000Z",' +
        '[["B.AppImage",1001,"YXJtIGZpbGU="],["a.AppImage",1000,"c2lnbmVkIGZpbGU="],["ä.AppImage",null,"ZXZpbA=="]]]',
    );
  });

  it('sort files by UTF-16 code units, never by the locale (localeCompare puts a before B and ä before B)', () => {
    const reversed = { ...info, files: [...info.files].reverse() };
    expect(updateMetadataBytes(reversed)).toEqual(updateMetadataBytes(info));
    expect(['B.AppImage', 'a.AppImage'].sort((x, y) => x.localeCompare(y))[0]).toBe('a.AppImage');
  });

  it('read a YAML Date expiry as its ISO string', () => {
    const asDate = { ...info, lanPartyExpires: new Date('2027-01-03T00:00:00.000Z') };
    expect(updateMetadataBytes(asDate)).toEqual(updateMetadataBytes(info));
    expect(updateStaleness({ ...info, lanPartyExpires: 'soon' }, 0)).toMatch(/no signed expiry/);
  });
});

describe('build-time feed checks', () => {
  it('refuses an http feed, and a feed without a signing key', () => {
    expect(updateFeedProblem('', '')).toBeUndefined();
    expect(updateFeedProblem('https://updates.example.org/lp/', 'a2V5')).toBeUndefined();
    expect(updateFeedProblem('http://updates.example.org/lp/', 'a2V5')).toContain('https://');
    expect(updateFeedProblem('https://updates.example.org/lp/', '')).toContain('updateSigningKey.ts');
  });

  it('npm run dist (scripts/dist.ts) stops before electron-builder runs on an http feed', () => {
    const run = tsx(['scripts/dist.ts', '--help'], { LAN_PARTY_UPDATE_URL: 'http://updates.example.org/lp/' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('must be an https:// URL');
  });
});

describe('version order (no downgrades)', () => {
  it('orders releases, pre-releases and refuses non-versions', () => {
    expect(compareVersions('1.3.0', '1.2.9')).toBeGreaterThan(0);
    expect(compareVersions('1.2.0', '1.2.0')).toBe(0);
    expect(compareVersions('1.2.0-beta.2', '1.2.0')).toBeLessThan(0);
    expect(compareVersions('1.2.0-beta.10', '1.2.0-beta.9')).toBeGreaterThan(0);
    expect(compareVersions('1.2.0-alpha', '1.2.0-1')).toBeGreaterThan(0);
    expect(compareVersions('10.0.0', '9.9.9')).toBeGreaterThan(0);
    expect(compareVersions('v1.0.0', '1.0.0')).toBeUndefined();
  });
});
