// The maintainer's update signing (README "Updates and their signature"):
//   npx tsx scripts/signUpdate.ts keygen <private-key.pem>   new Ed25519 key; prints the public key for
//                                                             main/shell/desktop/updateSigningKey.ts
//   npx tsx scripts/signUpdate.ts sign <private-key.pem> [--valid-days N] release/latest*.yml
//                                                             appends (or replaces) `lanPartyExpires:` (N days
//                                                             ahead, default 30) and `lanPartySignature:` in each;
//                                                             re-sign the live feed before it expires
// Keep the private key off the build machine's repository and off the update server: whoever holds it can ship
// code to every installed app. The app refuses any update whose metadata this signature does not cover.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { publicKeyOf, signUpdateInfo, type SignedUpdateInfo } from '../main/shell/desktop/updateSignature';

function fail(message: string): never {
  process.stderr.write(`signUpdate: ${message}\n`);
  process.exit(1);
}

/** The metadata electron-updater will read from a latest*.yml, checked for the fields the signature covers. */
export function readUpdateInfo(text: string, name: string): SignedUpdateInfo {
  const parsed = load(text) as Partial<SignedUpdateInfo> | null;
  if (!parsed || typeof parsed.version !== 'string' || !Array.isArray(parsed.files) || parsed.files.length === 0) {
    fail(`${name} has no version or no files: is it electron-builder's latest*.yml?`);
  }
  for (const file of parsed.files) {
    if (typeof file?.url !== 'string' || typeof file.sha512 !== 'string') fail(`${name}: a file without url or sha512`);
  }
  return parsed as SignedUpdateInfo;
}

/** How long a signed feed is good for unless told: the app refuses it after that (a replayed old feed). */
export const DEFAULT_VALID_DAYS = 30;

/** `text` with its expiry and signature lines replaced by ones over its metadata, valid until `expires`. */
export function signedYaml(text: string, name: string, privatePem: string, expires: Date): string {
  const body = text.replace(/^lanParty(Signature|Expires):.*\n?/gm, '').replace(/\n*$/, '\n');
  const lanPartyExpires = expires.toISOString();
  const signature = signUpdateInfo({ ...readUpdateInfo(body, name), lanPartyExpires }, privatePem);
  return `${body}lanPartyExpires: '${lanPartyExpires}'\nlanPartySignature: ${signature}\n`;
}

function main(argv: readonly string[]): void {
  const [command, keyPath, ...files] = argv;
  if (command === 'keygen' && keyPath) {
    if (existsSync(keyPath)) fail(`${keyPath} exists; not overwriting a signing key`);
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    writeFileSync(keyPath, pem, { mode: 0o600 });
    process.stdout.write(`private key written to ${keyPath} (keep it secret)\n`);
    process.stdout.write(`UPDATE_SIGNING_KEY = '${publicKeyOf(pem)}'\n`);
    return;
  }
  let days = DEFAULT_VALID_DAYS;
  if (files[0] === '--valid-days') {
    days = Number(files[1]);
    if (!Number.isInteger(days) || days < 1 || days > 366) fail('--valid-days takes a whole number of days, 1–366');
    files.splice(0, 2);
  }
  if (command === 'sign' && keyPath && files.length > 0) {
    const pem = readFileSync(keyPath, 'utf8');
    const expires = new Date(Date.now() + days * 86_400_000);
    for (const file of files) {
      writeFileSync(file, signedYaml(readFileSync(file, 'utf8'), file, pem, expires));
      process.stdout.write(`signed ${file}\n`);
    }
    return;
  }
  fail('usage: signUpdate.ts keygen <private-key.pem> | sign <private-key.pem> [--valid-days N] <latest.yml>...');
}

if (process.argv[1]?.endsWith('signUpdate.ts')) main(process.argv.slice(2));
