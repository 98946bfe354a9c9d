// Run by packagedTree.test.ts in a child Node process: loads hyperdht from an app folder (argv[2], the packaged app as
// Electron's fs shows it), opens a DHT node on loopback only and closes it, then prints what happened as one JSON line.
// No bootstrap nodes and 127.0.0.1: nothing is sent anywhere (hard rule: loopback only).
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const appDir = process.argv[2];
const appRequire = createRequire(join(appDir, 'package.json'));

/** Whether a plain UDP socket can take 127.0.0.1:port (false while another socket holds it). */
function canBind(port) {
  return new Promise((done) => {
    const socket = createSocket('udp4');
    socket.once('error', () => done(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => done(true)));
  });
}

const DHT = appRequire('hyperdht');
// hyperdht reads port 0 as "its default, 49737": an empty range [0, 0] leaves the choice to the OS.
const node = new DHT({ bootstrap: [], host: '127.0.0.1', port: [0, 0] });
await node.ready();
const ports = [node.address().port, node.localAddress().port];
const heldWhileOpen = await Promise.all(ports.map(async (port) => !(await canBind(port))));
await node.destroy();
const freeAfterDestroy = await Promise.all(ports.map(canBind));
const loaded = Object.keys(appRequire.cache);
process.stdout.write(
  `${JSON.stringify({
    ports,
    heldWhileOpen,
    freeAfterDestroy,
    addons: loaded.filter((file) => file.endsWith('.node')).sort(),
    outsideApp: loaded.filter((file) => !file.startsWith(appDir)),
  })}\n`,
);
