// The maintainer's update signing (README "Updates and their signature"):
//   npx tsx scripts/signUpdate.ts keygen <private-key.pem>   new Ed25519 key; prints the public key for
//                                                             main/shell/desktop/updateSigningKey.ts
//   npx tsx scripts/signUpdate.ts sign <private-key.pem> release/latest*.yml
//                                                             appends (or replaces) `lanPartySignature:` in each
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

/** `text` with its signature line replaced by one over its metadata. */
export function signedYaml(text: string, name: string, privatePem: string): string {
  const body = text.replace(/^lanPartySignature:.*\n?/m, '').replace(/\n*$/, '\n');
  const signature = signUpdateInfo(readUpdateInfo(body, name), privatePem);
  return `${body}lanPartySignature: ${signature}\n`;
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
  if (command === 'sign' && keyPath && files.length > 0) {
    const pem = readFileSync(keyPath, 'utf8');
    for (const file of files) {
      writeFileSync(file, signedYaml(readFileSync(file, 'utf8'), file, pem));
      process.stdout.write(`signed ${file}\n`);
    }
    return;
  }
  fail('usage: signUpdate.ts keygen <private-key.pem> | sign <private-key.pem> <latest.yml>...');
}

if (process.argv[1]?.endsWith('signUpdate.ts')) main(process.argv.slice(2));
