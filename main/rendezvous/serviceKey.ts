import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { MIN_SERVICE_KEY_BYTES } from './roomSecrets';

/** The key file's name inside the rendezvous' data folder. */
export const SERVICE_KEY_FILE_NAME = 'rendezvous.key';

/**
 * The rendezvous' data folder when none is given: `$XDG_DATA_HOME/lan-party` (else `~/.local/share/lan-party`)
 * on Linux, `%APPDATA%\lan-party` on Windows, `~/Library/Application Support/lan-party` on macOS.
 */
export function defaultRendezvousDataDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'lan-party');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'lan-party');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'lan-party');
}

/**
 * The rendezvous service key from `path` (hex, one line), created there with 32 random bytes (mode 0600, its
 * folder 0700) when the file does not exist yet. Rooms keep their owners across restarts only while this key
 * stays the same, so a file that cannot be read or holds something else is a clear error, never a new key.
 */
export function loadOrCreateServiceKey(path: string): Uint8Array {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      throw new Error(`cannot read the rendezvous service key ${path}: ${code ?? (error as Error).message}`, {
        cause: error,
      });
    }
    const key = randomBytes(MIN_SERVICE_KEY_BYTES);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return new Uint8Array(key);
  }
  const hex = text.trim();
  if (!/^(?:[0-9a-f]{2}){32,}$/i.test(hex)) {
    throw new Error(
      `${path} is damaged: not a rendezvous service key (at least 64 hex digits expected). Restore it from a ` +
        'backup, or delete it to start with a new key (every room registered so far is then lost)',
    );
  }
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
