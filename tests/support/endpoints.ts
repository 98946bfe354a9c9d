import { Client, Server, type DriveMode, type EndpointOptions, type ServerOptions } from '../../main/net/index';

/** Which protocol a test's endpoints speak: 'v1' turns the native path off on both sides. */
export type KitProtocol = 'v1' | 'native';

/**
 * Starts servers and clients for a test in one drive mode and protocol, pumping `update()` in
 * manual mode; `cleanup()` closes all.
 */
export function endpointKit(mode: DriveMode, protocol: KitProtocol = 'native') {
  const native = protocol === 'v1' ? ({ native: false } as const) : {};
  const servers: Server[] = [];
  const clients: Client[] = [];
  const pump = setInterval(() => {
    if (mode !== 'manual') return;
    for (const s of servers) s.update(0.005);
    for (const c of clients) c.update(0.005);
  }, 5);
  return {
    async server(options: Partial<ServerOptions> = {}): Promise<Server> {
      const s = await Server.listen({ port: 0, host: '127.0.0.1', drive: mode, ...native, ...options });
      servers.push(s);
      return s;
    },
    client(options: EndpointOptions = {}): Client {
      const c = new Client({ drive: mode, ...native, ...options });
      clients.push(c);
      return c;
    },
    async cleanup(): Promise<void> {
      clearInterval(pump);
      await Promise.all([...clients.map((c) => c.close()), ...servers.map((s) => s.close())]);
    },
  };
}
