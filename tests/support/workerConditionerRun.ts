// Run as its own process by workerConditioner.test.ts: relays a few datagrams through a WorkerConditioner, closes
// everything and returns without process.exit, so the process ends only if the worker thread really ended.
import { WorkerConditioner } from '../../bench/workerConditioner/workerConditioner';
import { echoServer, endpoint, waitFor } from '../main/conditioner/udpHelpers';

async function main(): Promise<void> {
  const server = await echoServer();
  const relay = await WorkerConditioner.start({ target: { host: '127.0.0.1', port: server.port } });
  const client = await endpoint();
  for (let i = 0; i < 5; i++) client.send(`n${i}`, relay.address.port);
  await waitFor(() => client.received.length === 5, 'five echoes');
  await relay.close();
  await client.close();
  await server.close();
  process.stdout.write(`relayed ${client.received.length}, closed\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
