import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A home router on a loopback address that speaks just enough NAT-PMP, PCP and UPnP IGD (SSDP, description, SOAP)
 * for the port-mapping client's tests. Its answers are written here by hand from the RFCs, not with the client's
 * encoders. Only loopback: it binds `address` (a 127/8 address) and answers whoever asked.
 */
export interface FakeRouterOptions {
  /** A 127/8 address of its own, so parallel test files do not meet. */
  readonly address: string;
  readonly protocols: readonly ('nat-pmp' | 'pcp' | 'upnp')[];
  readonly externalAddress: string;
  /** The external port it assigns for an internal port (default: internal + 1000, so "as asked" is not assumed). */
  readonly assignPort?: (internalPort: number) => number;
  /** Lease it grants, seconds (default: what was asked). */
  readonly grantSeconds?: number;
  /** UPnP: whether AddAnyPortMapping exists (IGD v2); default false (a v1 router: error 401). */
  readonly addAny?: boolean;
}

/** A mapping the fake router holds. */
export interface FakeMapping {
  readonly protocol: 'nat-pmp' | 'pcp' | 'upnp';
  readonly internalPort: number;
  readonly externalPort: number;
  readonly lifetimeSeconds: number;
  readonly nonce?: string;
  readonly internalClient?: string;
}

/** The running fake. */
export interface FakeRouter {
  readonly address: string;
  /** Where NAT-PMP and PCP are answered (one socket, as miniupnpd), and SSDP. */
  readonly ports: { readonly natPmp: number; readonly pcp: number; readonly ssdp: number };
  /** Mappings by protocol and external port. */
  readonly mappings: Map<string, FakeMapping>;
  /** Every request's kind, in order (e.g. 'nat-pmp:map', 'upnp:AddPortMapping'). */
  readonly log: string[];
  close(): Promise<void>;
}

const ipv4Bytes = (address: string) => Buffer.from(address.split('.').map(Number));

/** Starts the fake router. */
export async function startFakeRouter(options: FakeRouterOptions): Promise<FakeRouter> {
  const mappings = new Map<string, FakeMapping>();
  const log: string[] = [];
  const assign = options.assignPort ?? ((port: number) => port + 1000);
  const on = (protocol: 'nat-pmp' | 'pcp' | 'upnp') => options.protocols.includes(protocol);
  const udp = await bindUdp(options.address);
  const ssdp = await bindUdp(options.address);
  const http = await startHttp(options, mappings, log, assign);
  const httpPort = (http.address() as AddressInfo).port;

  udp.on('message', (message, from) => {
    const reply = (bytes: Buffer) => udp.send(bytes, from.port, from.address);
    if (message[0] === 0 && on('nat-pmp')) {
      if (message[1] === 0) {
        log.push('nat-pmp:address');
        const out = Buffer.alloc(12);
        out.writeUInt16BE(0x0080, 0);
        out.writeUInt32BE(1000, 4);
        ipv4Bytes(options.externalAddress).copy(out, 8);
        reply(out);
      } else if (message[1] === 1 && message.length >= 12) {
        const internalPort = message.readUInt16BE(4);
        const lifetime = message.readUInt32BE(8);
        const existing = [...mappings.values()].find(
          (m) => m.protocol === 'nat-pmp' && m.internalPort === internalPort,
        );
        let externalPort = 0;
        if (lifetime === 0) {
          log.push('nat-pmp:delete');
          if (existing) mappings.delete(`nat-pmp:${existing.externalPort}`);
        } else {
          log.push('nat-pmp:map');
          externalPort = existing?.externalPort ?? assign(internalPort);
          const granted = options.grantSeconds ?? lifetime;
          mappings.set(`nat-pmp:${externalPort}`, {
            protocol: 'nat-pmp',
            internalPort,
            externalPort,
            lifetimeSeconds: granted,
          });
        }
        const out = Buffer.alloc(16);
        out.writeUInt16BE(0x0081, 0);
        out.writeUInt32BE(1000, 4);
        out.writeUInt16BE(internalPort, 8);
        out.writeUInt16BE(externalPort, 10);
        out.writeUInt32BE(lifetime === 0 ? 0 : (options.grantSeconds ?? lifetime), 12);
        reply(out);
      }
    } else if (message[0] === 2 && on('pcp') && message.length >= 24) {
      const opcode = message[1]! & 0x7f;
      const out = Buffer.alloc(opcode === 1 ? 60 : 24);
      out[0] = 2;
      out[1] = 0x80 | opcode;
      out.writeUInt32BE(1000, 8);
      if (opcode === 0) {
        log.push('pcp:announce');
        reply(out);
        return;
      }
      if (opcode !== 1 || message.length < 60) return;
      const lifetime = message.readUInt32BE(4);
      const nonce = message.subarray(24, 36).toString('hex');
      const internalPort = message.readUInt16BE(40);
      const existing = [...mappings.values()].find((m) => m.protocol === 'pcp' && m.internalPort === internalPort);
      message.copy(out, 24, 24, 60);
      let externalPort: number;
      if (existing && existing.nonce !== nonce) {
        out[3] = 2; // NOT_AUTHORIZED: another nonce may not touch this mapping (RFC 6887 §11.3)
        externalPort = 0;
      } else if (lifetime === 0) {
        log.push('pcp:delete');
        if (existing) mappings.delete(`pcp:${existing.externalPort}`);
        externalPort = existing?.externalPort ?? 0;
      } else {
        log.push('pcp:map');
        externalPort = existing?.externalPort ?? assign(internalPort);
        mappings.set(`pcp:${externalPort}`, {
          protocol: 'pcp',
          internalPort,
          externalPort,
          lifetimeSeconds: lifetime,
          nonce,
        });
        out.writeUInt32BE(options.grantSeconds ?? lifetime, 4);
      }
      out.writeUInt16BE(externalPort, 42);
      out.fill(0, 44, 54);
      out.writeUInt16BE(0xffff, 54);
      ipv4Bytes(options.externalAddress).copy(out, 56);
      reply(out);
    }
  });
  ssdp.on('message', (message, from) => {
    const text = message.toString('utf8');
    if (!on('upnp') || !text.startsWith('M-SEARCH')) return;
    log.push('upnp:search');
    const st = /\r\nST: ([^\r]+)/.exec(text)?.[1] ?? '';
    const answer =
      `HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nST: ${st}\r\nUSN: uuid:fake::${st}\r\n` +
      `LOCATION: http://${options.address}:${httpPort}/rootDesc.xml\r\n\r\n`;
    ssdp.send(answer, from.port, from.address);
  });

  return {
    address: options.address,
    ports: { natPmp: udp.address().port, pcp: udp.address().port, ssdp: ssdp.address().port },
    mappings,
    log,
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => ssdp.close(() => resolve())),
        new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        }),
      ]);
    },
  };
}

function bindUdp(address: string): Promise<Socket> {
  const socket = createSocket('udp4');
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, address, () => resolve(socket));
  });
}

const SERVICE = 'urn:schemas-upnp-org:service:WANIPConnection:1';

async function startHttp(
  options: FakeRouterOptions,
  mappings: Map<string, FakeMapping>,
  log: string[],
  assign: (port: number) => number,
): Promise<Server> {
  const service = options.addAny ? SERVICE.replace(':1', ':2') : SERVICE;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/rootDesc.xml') {
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        res.end(
          `<?xml version="1.0"?><root><device><deviceList><device><deviceList><device><serviceList>` +
            `<service><serviceType>${service}</serviceType><controlURL>/ctl/IPConn</controlURL></service>` +
            `</serviceList></device></deviceList></device></deviceList></device></root>`,
        );
        return;
      }
      const action = /#(\w+)"?$/.exec(req.headers.soapaction?.toString() ?? '')?.[1] ?? '';
      const arg = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1] ?? '';
      log.push(`upnp:${action}`);
      const ok = (inner: string) => {
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        res.end(
          `<s:Envelope><s:Body><u:${action}Response xmlns:u="${service}">${inner}</u:${action}Response></s:Body></s:Envelope>`,
        );
      };
      const fault = (code: number, text: string) => {
        res.writeHead(500, { 'Content-Type': 'text/xml' });
        res.end(
          `<s:Envelope><s:Body><s:Fault><detail><UPnPError><errorCode>${code}</errorCode>` +
            `<errorDescription>${text}</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>`,
        );
      };
      const add = (externalPort: number) => {
        const internalPort = Number(arg('NewInternalPort'));
        const mapping = {
          protocol: 'upnp' as const,
          internalPort,
          externalPort,
          lifetimeSeconds: Number(arg('NewLeaseDuration')),
          internalClient: arg('NewInternalClient'),
        };
        mappings.set(`upnp:${externalPort}`, mapping);
      };
      if (action === 'GetExternalIPAddress')
        return ok(`<NewExternalIPAddress>${options.externalAddress}</NewExternalIPAddress>`);
      if (action === 'AddAnyPortMapping') {
        if (!options.addAny) return fault(401, 'Invalid Action');
        const port = assign(Number(arg('NewInternalPort')));
        add(port);
        return ok(`<NewReservedPort>${port}</NewReservedPort>`);
      }
      if (action === 'AddPortMapping') {
        add(Number(arg('NewExternalPort')));
        return ok('');
      }
      if (action === 'DeletePortMapping') {
        const key = `upnp:${Number(arg('NewExternalPort'))}`;
        if (!mappings.has(key) || arg('NewProtocol') !== 'UDP') return fault(714, 'NoSuchEntryInArray');
        mappings.delete(key);
        return ok('');
      }
      fault(401, 'Invalid Action');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, options.address, () => resolve()));
  return server;
}
