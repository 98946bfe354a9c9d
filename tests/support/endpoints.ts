import { Client, Server, type DriveMode, type EndpointOptions, type ServerOptions } from '../../main/net/index';

/** Starts servers and clients for a test in one drive mode, pumping `update()` in manual mode; `cleanup()` closes all. */
export function endpointKit(mode: DriveMode) {
  const servers: Server[] = [];
  const clients: Client[] = [];
  const pump = setInterval(() => {
    if (mode !== 'manual') return;
    for (const s of servers) s.update(0.005);
    for (const c of clients) c.update(0.005);
  }, 5);
  return {
    async server(options: Partial<ServerOptions> = {}): Promise<Server> {
      const s = await Server.listen({ port: 0, host: '127.0.0.1', drive: mode, ...options });
      servers.push(s);
      return s;
    },
    client(options: EndpointOptions = {}): Client {
      const c = new Client({ drive: mode, ...options });
      clients.push(c);
      return c;
    },
    async cleanup(): Promise<void> {
      clearInterval(pump);
      await Promise.all([...clients.map((c) => c.close()), ...servers.map((s) => s.close())]);
    },
  };
}
