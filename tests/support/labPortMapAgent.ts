import { createSocket } from 'node:dgram';
import { createInterface } from 'node:readline';
import { createRouterPortMapper, probeRouter, removeLeftoverMappings } from '../../main/reach/portmap/routerPortMapper';
import type { PortMapping, PortMapProtocol } from '../../main/reach/portmap/portMapping';
import { stunSuccess } from './stunTestServer';

/**
 * A process inside a lab namespace (tests/lab/routerPortMapping.test.ts), driven by JSON lines on stdin, answering
 * JSON lines on stdout. `stun <host> <port> [reportAs]`: a STUN responder answering every Binding request (CHANGE-
 * REQUEST ignored) with its source, or with `reportAs`. `client`: the router port mapper of the app, on the
 * namespace's own default gateway, with a UDP socket on the mapped port that reports what reaches it.
 */

/** What the test sends a client agent. */
export type PortMapAgentCommand =
  | {
      readonly cmd: 'map';
      readonly internalPort: number;
      readonly protocol?: PortMapProtocol;
      readonly recordFile: string;
      /** The player's STUN server, to find a second NAT; absent: unchecked. */
      readonly stun?: { readonly host: string; readonly port: number };
    }
  | { readonly cmd: 'close' }
  | { readonly cmd: 'cleanup'; readonly recordFile: string }
  | { readonly cmd: 'probe' }
  | { readonly cmd: 'send'; readonly host: string; readonly port: number; readonly text: string };

/** What an agent says. */
export type PortMapAgentEvent =
  | { readonly ev: 'ready' }
  | { readonly ev: 'mapped'; readonly result: unknown; readonly ms: number }
  | { readonly ev: 'closed' }
  | { readonly ev: 'cleaned'; readonly removed: number }
  | { readonly ev: 'probed'; readonly report: unknown; readonly ms: number }
  | { readonly ev: 'got'; readonly text: string; readonly from: string }
  | { readonly ev: 'sent' }
  | { readonly ev: 'error'; readonly message: string };

const say = (event: PortMapAgentEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);

function runStun(host: string, port: number, reportAs: string | undefined): void {
  const socket = createSocket('udp4');
  socket.on('message', (datagram, from) => {
    if (datagram.length < 20 || datagram.readUInt16BE(0) !== 0x0001) return;
    socket.send(stunSuccess(datagram.subarray(8, 20), reportAs ?? from.address, from.port), from.port, from.address);
  });
  socket.bind(port, host, () => say({ ev: 'ready' }));
}

function runClient(): void {
  let mapping: PortMapping | undefined;
  const socket = createSocket('udp4');
  socket.on('message', (datagram, from) => {
    say({ ev: 'got', text: datagram.toString('utf8'), from: `${from.address}:${from.port}` });
    socket.send(`echo ${datagram.toString('utf8')}`, from.port, from.address);
  });
  const common = { gateways: undefined, ssdpTargets: [] as string[] };
  createInterface({ input: process.stdin }).on('line', (line) => {
    void (async () => {
      const command = JSON.parse(line) as PortMapAgentCommand;
      const started = Date.now();
      if (command.cmd === 'map') {
        await new Promise<void>((resolve) => socket.bind(command.internalPort, '0.0.0.0', resolve));
        const mapPort = createRouterPortMapper({
          ...common,
          recordFile: command.recordFile,
          ...(command.protocol ? { protocols: [command.protocol] } : {}),
        });
        const stun = command.stun;
        const result = await mapPort({
          internalPort: command.internalPort,
          ...(stun ? { stunServer: () => Promise.resolve(stun) } : {}),
        });
        if (result.ok) mapping = result.mapping;
        const plain = result.ok
          ? {
              ok: true,
              mapping: {
                ...result.mapping,
                externalAddress: result.mapping.externalAddress,
                externalPort: result.mapping.externalPort,
              },
            }
          : result;
        say({ ev: 'mapped', result: plain, ms: Date.now() - started });
      } else if (command.cmd === 'close') {
        await mapping?.close();
        say({ ev: 'closed' });
      } else if (command.cmd === 'cleanup') {
        say({ ev: 'cleaned', removed: await removeLeftoverMappings({ ...common, recordFile: command.recordFile }) });
      } else if (command.cmd === 'probe') {
        const report = await probeRouter(common);
        say({ ev: 'probed', report, ms: Date.now() - started });
      } else if (command.cmd === 'send') {
        socket.send(command.text, command.port, command.host, () => say({ ev: 'sent' }));
      }
    })().catch((error: unknown) => say({ ev: 'error', message: String(error) }));
  });
  say({ ev: 'ready' });
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'stun') runStun(args[0]!, Number(args[1]), args[2]);
else runClient();
