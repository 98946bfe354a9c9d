// Run inside a lab namespace (`ip netns exec … node --import tsx coturnPermissionProbe.ts '<json>'`): allocates
// on a TURN server with REST-API credentials, asks CreatePermission for each peer address, prints one JSON line
// `{ "<peer>": "granted" | <error code> | "no-answer" }` and frees the allocation. Sends only to the server named.
import { createHash } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { classes, Message, methods, parseMessage } from 'werift-ice';

interface ProbeRequest {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  readonly password: string;
  readonly peers: readonly string[];
}

const UDP_TRANSPORT = 0x11_00_00_00;

async function main(request: ProbeRequest): Promise<Record<string, string | number>> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, resolve));
  const ask = (message: Message, key?: Buffer) =>
    new Promise<Message | undefined>((resolve) => {
      if (key) message.addMessageIntegrity(key).addFingerprint();
      let tries = 0;
      const send = () => socket.send(message.bytes, request.port, request.host);
      const retry = setInterval(() => (++tries < 4 ? send() : finish(undefined)), 500);
      const onMessage = (data: Buffer) => {
        const answer = parseMessage(data);
        if (answer?.transactionIdHex === message.transactionIdHex) finish(answer);
      };
      const finish = (answer: Message | undefined) => {
        clearInterval(retry);
        socket.off('message', onMessage);
        resolve(answer);
      };
      socket.on('message', onMessage);
      send();
    });
  const code = (answer: Message) => (answer.getAttributeValue('ERROR-CODE') as [number, string] | undefined)?.[0] ?? 0;
  const allocate = () =>
    new Message(methods.ALLOCATE, classes.REQUEST).setAttribute('REQUESTED-TRANSPORT', UDP_TRANSPORT);
  const challenge = await ask(allocate());
  if (!challenge) throw new Error('the TURN server did not answer');
  const realm = challenge.getAttributeValue('REALM') as string;
  const nonce = challenge.getAttributeValue('NONCE') as Buffer;
  const key = createHash('md5').update(`${request.username}:${realm}:${request.password}`).digest();
  const auth = (message: Message) =>
    message.setAttribute('USERNAME', request.username).setAttribute('REALM', realm).setAttribute('NONCE', nonce);
  const allocated = await ask(auth(allocate()), key);
  if (allocated?.messageClass !== classes.RESPONSE)
    throw new Error(`allocation failed (${allocated && code(allocated)})`);
  const results: Record<string, string | number> = {};
  for (const peer of request.peers) {
    const permission = auth(new Message(methods.CREATE_PERMISSION, classes.REQUEST)).setAttribute('XOR-PEER-ADDRESS', [
      peer,
      9,
    ]);
    const answer = await ask(permission, key);
    results[peer] = !answer ? 'no-answer' : answer.messageClass === classes.RESPONSE ? 'granted' : code(answer);
  }
  await ask(auth(new Message(methods.REFRESH, classes.REQUEST).setAttribute('LIFETIME', 0)), key);
  socket.close();
  return results;
}

main(JSON.parse(process.argv[2] ?? '{}') as ProbeRequest).then(
  (results) => process.stdout.write(`${JSON.stringify(results)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
