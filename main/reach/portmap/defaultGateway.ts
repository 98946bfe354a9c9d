import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parseIpv4 } from '../../../shared/roomCode/ipv4';

/**
 * The system's IPv4 default gateways, where the port-mapping client asks: read from /proc/net/route on Linux and
 * from `route` output on macOS and Windows. The parsers are pure (tested with fixture text); only
 * {@link findDefaultGateways} touches the system.
 */

/** Reads what the parsers need; injected so tests never run `route`. */
export interface GatewaySource {
  readFile(path: string): Promise<string>;
  run(command: string, args: readonly string[]): Promise<string>;
}

const systemSource: GatewaySource = {
  readFile: (path) => readFile(path, 'utf8'),
  run: (command, args) =>
    new Promise((resolve, reject) =>
      execFile(command, [...args], { timeout: 2_000, windowsHide: true }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    ),
};

/** The default gateways of this machine, best first; [] when there is none or the table cannot be read. */
export async function findDefaultGateways(
  platform: NodeJS.Platform = process.platform,
  source: GatewaySource = systemSource,
): Promise<string[]> {
  try {
    if (platform === 'linux' || platform === 'android')
      return parseLinuxRouteTable(await source.readFile('/proc/net/route'));
    if (platform === 'win32') return parseWindowsRoutePrint(await source.run('route', ['print', '-4']));
    return parseBsdRouteGet(await source.run('route', ['-n', 'get', 'default']));
  } catch {
    return [];
  }
}

/**
 * Linux's /proc/net/route: rows of interface, destination, gateway, flags… in hex, addresses in host (little-endian)
 * byte order. A default route has destination and mask 0 and the RTF_GATEWAY flag (0x2); lowest metric first.
 */
export function parseLinuxRouteTable(text: string): string[] {
  const rows: { gateway: string; metric: number }[] = [];
  for (const line of text.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8) continue;
    const [, destination, gateway, flags, , , metric, mask] = fields;
    if (destination !== '00000000' || mask !== '00000000') continue;
    if ((Number.parseInt(flags!, 16) & 0x2) === 0 || !/^[0-9A-Fa-f]{8}$/.test(gateway!)) continue;
    const value = Number.parseInt(gateway!, 16);
    const address = [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24].join('.');
    if (address !== '0.0.0.0') rows.push({ gateway: address, metric: Number(metric) || 0 });
  }
  return unique(rows.sort((a, b) => a.metric - b.metric).map((row) => row.gateway));
}

/** macOS / BSD `route -n get default`: the line "gateway: 192.168.1.1" (a name or an interface is not an address). */
export function parseBsdRouteGet(text: string): string[] {
  const match = /^\s*gateway:\s*(\S+)\s*$/m.exec(text);
  return match && parseIpv4(match[1]!) !== undefined ? [match[1]!] : [];
}

/** Windows `route print -4`: rows "0.0.0.0  0.0.0.0  <gateway>  <interface>  <metric>"; lowest metric first. */
export function parseWindowsRoutePrint(text: string): string[] {
  const rows: { gateway: string; metric: number }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length !== 5 || fields[0] !== '0.0.0.0' || fields[1] !== '0.0.0.0') continue;
    const gateway = fields[2]!;
    if (parseIpv4(gateway) === undefined || gateway === '0.0.0.0') continue; // "On-link"
    rows.push({ gateway, metric: Number(fields[4]) || 0 });
  }
  return unique(rows.sort((a, b) => a.metric - b.metric).map((row) => row.gateway));
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
