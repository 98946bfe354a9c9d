import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** The interpreter itself, resolved once: version-manager shims (pyenv) add seconds to every launch. */
function findPython(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  const executable = probe.status === 0 ? probe.stdout.trim() : '';
  return executable === '' ? undefined : executable;
}

const resolvedPython = findPython();
const python = resolvedPython ?? 'python3';

/** Whether a python3 interpreter is available to stand in for the reference implementation. */
export const hasPython = resolvedPython !== undefined;

// Minimal stand-ins written from the documented reference behaviour (gale-wire-v1.md "LAN discovery"):
// the server reads 512 bytes and answers anything starting with the magic with json.dumps of three fields;
// the searcher sends the bare magic and parses replies of up to 512 bytes. Both refuse non-loopback targets.
const SERVER = `
import json, select, socket, sys, time
port, name, game_port, players = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("0.0.0.0", port))
print("READY", flush=True)
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    ready, _, _ = select.select([sock, sys.stdin], [], [], 0.1)
    if sys.stdin in ready and not sys.stdin.readline():
        break
    if sock in ready:
        data, address = sock.recvfrom(512)
        if not address[0].startswith("127."):
            continue
        if data.startswith(b"GALEDISC1"):
            reply = {"name": name, "port": game_port, "player_count": players}
            sock.sendto(b"GALEDISC1" + json.dumps(reply).encode("utf-8"), address)
`;

const SEARCHER = `
import json, socket, sys, time
target, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
if not target.startswith("127."):
    sys.exit("refusing a non-loopback target")
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
sock.sendto(b"GALEDISC1", (target, port))
found = []
deadline = time.monotonic() + timeout
while True:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        break
    sock.settimeout(remaining)
    try:
        data, address = sock.recvfrom(512)
    except socket.timeout:
        break
    if not data.startswith(b"GALEDISC1"):
        continue
    try:
        info = json.loads(data[9:].decode("utf-8"))
        found.append([info["name"], address[0], info["port"], info["player_count"]])
    except (ValueError, KeyError, TypeError):
        continue
print(json.dumps(found))
`;

/** Starts the reference-like server; resolves once it is bound. Closing stdin stops it. */
export function startPythonServer(
  port: number,
  name: string,
  gamePort: number,
  players: number,
): Promise<ChildProcess> {
  const child = spawn(python, ['-c', SERVER, String(port), name, String(gamePort), String(players)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`python server exited early (${code})`)));
    child.stdout?.once('data', () => resolve(child));
  });
}

/** Stops a server started by {@link startPythonServer}. */
export function stopPythonServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
    setTimeout(() => child.kill('SIGKILL'), 2000).unref();
  });
}

/** Runs the reference-like searcher against a loopback target; returns [name, host, port, playerCount] rows. */
export function runPythonSearcher(target: string, port: number, timeoutSeconds: number): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-c', SEARCHER, target, String(port), String(timeoutSeconds)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`python searcher failed (${code})`));
      try {
        resolve(JSON.parse(output) as unknown[]);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}
