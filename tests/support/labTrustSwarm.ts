// Run inside a NAT-lab namespace (`ip netns exec … node --import tsx labTrustSwarm.ts '<json plan>'`): strangers
// speaking the rendezvous WebSocket protocol from many local source addresses (extra addresses of the
// namespace's own public interface, 203.0.113.0/24, which exists only inside the lab). Prints one JSON line: what
// the service and the host answered. Sends only to the rendezvous URL named in the plan. Bounded in count and time.
import { randomBytes } from 'node:crypto';
import { sealSignal, startGuestAgreement } from '../../main/net/secure';
import { internetJoinAgreement } from '../../main/reach/internet/internetJoinAgreement';
import { newCodeSecret, RENDEZVOUS_VERSION } from '../../shared/rendezvous';
import { openSwarmClient, type SwarmClient, type SwarmMessage } from './labTrustSwarmClient';

/** What to do; each mode prints its own summary. */
export type SwarmPlan =
  | { mode: 'guess'; url: string; sources: string[]; roomId: string; attempts: number; concurrency: number }
  | { mode: 'capture'; url: string; sources: string[]; roomId: string; secret: string; decoys: string[] }
  | {
      mode: 'replay';
      url: string;
      sources: string[];
      joinText: string;
      pake: string;
      sealed: string;
      replays: number;
      concurrency: number;
    }
  | {
      mode: 'probe';
      url: string;
      sources: string[];
      probes: number;
      perSecond: number;
      waitMs: number;
      knownRoomId: string;
    }
  | { mode: 'squat'; url: string; sources: string[]; roomId: string }
  | {
      mode: 'churn';
      url: string;
      sources: string[];
      roomId: string;
      /** Rounds at least, and on for `minMs` at least (at most ten times the rounds). */
      rounds: number;
      minMs: number;
      joinsPerConnection: number;
      hold: boolean;
    };

const random = (size: number) => new Uint8Array(randomBytes(size));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const BACKOFF = /too many wrong codes/i;
const WAIT_MS = 15_000;

/** A CPace offer for `roomId` under a secret that is not the room's (a fresh guess each call). */
const wrongOffer = (roomId: string) =>
  b64(startGuestAgreement(internetJoinAgreement({ roomId, secret: newCodeSecret(random) }), random).offer);

const count = (tally: Record<string, number>, key: string) => (tally[key] = (tally[key] ?? 0) + 1);
const isJoinError = (joinId: string) => (m: SwarmMessage) => m.kind === 'error' && m.joinId === joinId;
/** The service's next `kind` message for the join, or its error for the join. */
const replyOf = (kind: string, joinId: string) => (m: SwarmMessage) =>
  (m.kind === kind && m.joinId === joinId) || isJoinError(joinId)(m);

/** Sends a join and waits for the service's pending answer, or its refusal (which names no join). */
async function openJoin(client: SwarmClient, text: string): Promise<SwarmMessage> {
  client.sendText(text);
  return client.next((m) => m.kind === 'join-pending' || (m.kind === 'error' && m.joinId === undefined), WAIT_MS);
}

/**
 * Sends a join (as text) and waits for the host's reply to it: its answer, or its join's error. Undefined when
 * the service refused the join before it reached the host (counted in `tally`; the caller retries).
 */
async function joinToHost(
  client: SwarmClient,
  text: string,
  tally: Record<string, number>,
): Promise<{ joinId: string; reply: SwarmMessage } | undefined> {
  const pending = await openJoin(client, text);
  if (pending.kind === 'error') {
    count(tally, `refused:${String(pending.code)}`);
    await new Promise((r) => setTimeout(r, 20));
    return undefined;
  }
  const joinId = String(pending.joinId);
  const reply = await client.next(replyOf('answer', joinId), WAIT_MS);
  return { joinId, reply };
}

/** Runs `attempts` jobs on `concurrency` workers, each on its own share of the clients. */
async function onWorkers(
  clients: SwarmClient[],
  attempts: number,
  concurrency: number,
  job: (client: SwarmClient) => Promise<boolean>,
): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      const mine = clients.filter((_, i) => i % concurrency === w);
      for (let turn = 0; started < attempts && turn < attempts * 20; turn += 1) {
        const client = mine[turn % mine.length]!;
        started += 1;
        // A job that the service refused before it reached the host does not count: it is retried.
        if (!(await job(client))) started -= 1;
      }
    }),
  );
}

async function guess(plan: Extract<SwarmPlan, { mode: 'guess' }>) {
  const clients = await Promise.all(plan.sources.map((source) => openSwarmClient(plan.url, source)));
  const tally: Record<string, number> = {};
  let backoffText = '';
  const started = performance.now();
  await onWorkers(clients, plan.attempts, plan.concurrency, async (client) => {
    const reached = await joinToHost(
      client,
      JSON.stringify({ v: RENDEZVOUS_VERSION, kind: 'join', roomId: plan.roomId, pake: wrongOffer(plan.roomId) }),
      tally,
    );
    if (!reached) return false;
    const { joinId, reply } = reached;
    if (reply.kind === 'answer') {
      // The host ran the agreement: one guess it checked. Our confirmation cannot be right.
      count(tally, 'answered');
      client.send({ kind: 'confirm', joinId, pake: b64(random(64)) });
      const verdict = await client.next(isJoinError(joinId), WAIT_MS);
      count(
        tally,
        `after-answer:${String(verdict.code)}:${BACKOFF.test(String(verdict.message)) ? 'backoff' : 'other'}`,
      );
    } else if (BACKOFF.test(String(reply.message))) {
      count(tally, 'backoff');
      backoffText ||= String(reply.message);
    } else count(tally, `join-error:${String(reply.code)}`);
    return true;
  });
  const elapsedMs = performance.now() - started;
  for (const client of clients) client.close();
  return { tally, elapsedMs, backoffText, closedByService: clients.filter((c) => c.closedBy !== undefined).length };
}

async function capture(plan: Extract<SwarmPlan, { mode: 'capture' }>) {
  const client = await openSwarmClient(plan.url, plan.sources[0]!);
  const agreement = startGuestAgreement(internetJoinAgreement({ roomId: plan.roomId, secret: plan.secret }), random);
  const joinText = JSON.stringify({
    v: RENDEZVOUS_VERSION,
    kind: 'join',
    roomId: plan.roomId,
    pake: b64(agreement.offer),
  });
  const pending = await openJoin(client, joinText);
  if (pending.kind !== 'join-pending') throw new Error(`capture: join refused: ${JSON.stringify(pending)}`);
  const joinId = String(pending.joinId);
  const answer = await client.next((m) => m.kind === 'answer' && m.joinId === joinId, WAIT_MS);
  const agreed = agreement.finish(Buffer.from(String(answer.pake), 'base64url'));
  // ICE parameters naming only the decoys: what a replay of this offer would ask the host to check.
  const ice = {
    usernameFragment: 'Rply',
    password: 'replayreplayreplayreplay',
    candidates: plan.decoys.map((ip, i) => `${i + 1} 1 udp 2130706431 ${ip} ${40_000 + i} typ host`),
  };
  const pake = b64(agreed.confirm);
  const sealed = sealSignal(agreed.keys.signalGuestToHost, JSON.stringify(ice), random);
  client.send({ kind: 'confirm', joinId, pake });
  // The host accepted (our TURN grant comes): only now do our parameters go, and the host's come back.
  const accepted = await client.next(replyOf('turn', joinId), WAIT_MS);
  if (accepted.kind !== 'turn') throw new Error(`capture: the host did not accept: ${JSON.stringify(accepted)}`);
  client.send({ kind: 'signal', joinId, sealed });
  const hostSignal = await client.next(replyOf('signal', joinId), WAIT_MS);
  client.close();
  return { joinText, pake, sealed, hostSignalled: hostSignal.kind === 'signal' };
}

async function replay(plan: Extract<SwarmPlan, { mode: 'replay' }>) {
  const clients = await Promise.all(plan.sources.map((source) => openSwarmClient(plan.url, source)));
  const tally: Record<string, number> = {};
  await onWorkers(clients, plan.replays, plan.concurrency, async (client) => {
    // The captured join, byte for byte; then the captured confirmation under the join id the service gave.
    const reached = await joinToHost(client, plan.joinText, tally);
    if (!reached) return false;
    const { joinId, reply } = reached;
    if (reply.kind !== 'answer') {
      count(tally, BACKOFF.test(String(reply.message)) ? 'backoff' : `join-error:${String(reply.code)}`);
      return true;
    }
    count(tally, 'answered');
    client.send({ kind: 'confirm', joinId, pake: plan.pake });
    const verdict = await client.next(replyOf('turn', joinId), WAIT_MS);
    if (verdict.kind !== 'turn') {
      count(tally, `after-confirm:${String(verdict.code)}`);
      return true;
    }
    // Accepted (it must not be): the captured parameters, and whether the host answers them.
    count(tally, 'host-accepted');
    client.send({ kind: 'signal', joinId, sealed: plan.sealed });
    const answer = await client.next(replyOf('signal', joinId), WAIT_MS);
    if (answer.kind === 'signal') count(tally, 'host-signalled');
    return true;
  });
  for (const client of clients) client.close();
  return { tally };
}

async function probe(plan: Extract<SwarmPlan, { mode: 'probe' }>) {
  const source = plan.sources[0]!;
  const tally: Record<string, number> = {};
  const clients: SwarmClient[] = [];
  const answers: Promise<void>[] = [];
  const answeredAt: number[] = [];
  const started = performance.now();
  const live = async () => {
    for (const client of clients) if (client.closedBy === undefined && client.waiting < 4) return client;
    if (clients.filter((c) => c.closedBy === undefined).length >= 16) return undefined;
    const fresh = await openSwarmClient(plan.url, source).catch(() => undefined);
    if (fresh) clients.push(fresh);
    return fresh;
  };
  for (let sent = 0; sent < plan.probes;) {
    // Paced at the message rate the service allows one address, the rate the old code answered every probe at.
    const due = started + (sent * 1000) / plan.perSecond;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    const client = await live();
    if (!client) {
      count(tally, 'no-connection');
      await new Promise((r) => setTimeout(r, 200));
      if (performance.now() - started > plan.waitMs * 4) break;
      continue;
    }
    const roomId = Array.from(random(6), (b) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[b & 31]).join('');
    sent += 1;
    client.send({ kind: 'join', roomId, pake: b64(random(64)) });
    answers.push(
      client
        .next((m) => m.kind === 'error' && /no room/.test(String(m.message)), plan.waitMs)
        .then(
          () => {
            answeredAt.push(performance.now() - started);
            count(tally, 'answered');
          },
          () => void count(tally, 'unanswered'),
        ),
    );
  }
  const sendingMs = performance.now() - started;
  await Promise.all(answers);
  const elapsedMs = performance.now() - started;
  // A join of a room that exists, from the same (over-budget) address: does the service react within 3 s?
  const known = await openSwarmClient(plan.url, source).catch(() => undefined);
  let knownMs: number | undefined;
  let knownReply = 'none';
  if (known) {
    const t = performance.now();
    known.send({ kind: 'join', roomId: plan.knownRoomId, pake: wrongOffer(plan.knownRoomId) });
    await known
      .next((m) => m.kind === 'join-pending' || m.kind === 'error', 3000)
      .then(
        (m) => {
          knownMs = performance.now() - t;
          knownReply = `${m.kind}:${String(m.code ?? '')}`;
        },
        () => undefined,
      );
    known.close();
  }
  for (const client of clients) {
    for (const m of client.seen)
      if (m.kind === 'error' && !/no room/.test(String(m.message))) count(tally, `refused:${String(m.code)}`);
    client.close();
  }
  return { tally, sendingMs, elapsedMs, answeredAt, connections: clients.length, knownMs, knownReply };
}

async function churn(plan: Extract<SwarmPlan, { mode: 'churn' }>) {
  const tally: Record<string, number> = {};
  const held: SwarmClient[] = [];
  const started = performance.now();
  process.stdout.write('started\n');
  for (let round = 0; round < plan.rounds || performance.now() - started < plan.minMs; round += 1) {
    if (round >= plan.rounds * 10) break;
    // Two connections per address, each opening its joins at once; dropped straight away unless held.
    const clients = (
      await Promise.all(
        plan.sources.flatMap((s) => [s, s]).map((s) => openSwarmClient(plan.url, s).catch(() => undefined)),
      )
    ).filter((c): c is SwarmClient => c !== undefined);
    count(tally, 'rounds');
    tally.connections = (tally.connections ?? 0) + clients.length;
    for (const client of clients) {
      for (let j = 0; j < plan.joinsPerConnection; j += 1) {
        client.send({ kind: 'join', roomId: plan.roomId, pake: wrongOffer(plan.roomId) });
        count(tally, 'joins-sent');
      }
    }
    if (plan.hold) held.push(...clients);
    else {
      await new Promise((r) => setTimeout(r, 30));
      for (const client of clients) {
        for (const m of client.seen) count(tally, `seen:${String(m.kind)}:${String(m.code ?? '')}`);
        client.close();
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // Held joins: give the host's answers time to arrive before saying what was seen.
  if (plan.hold) await new Promise((r) => setTimeout(r, 1000));
  for (const client of held)
    for (const m of client.seen) count(tally, `seen:${String(m.kind)}:${String(m.code ?? '')}`);
  return {
    tally,
    elapsedMs: performance.now() - started,
    held: held.length,
    release: () => held.forEach((c) => c.close()),
  };
}

async function squat(plan: Extract<SwarmPlan, { mode: 'squat' }>) {
  // From each source: claim the room id with a secret of our own, then ask to join it (who answers?).
  const answers = await Promise.all(
    plan.sources.map(async (source) => {
      const client = await openSwarmClient(plan.url, source);
      client.send({ kind: 'register', room: { roomId: plan.roomId, roomSecret: b64(random(24)) } });
      const claim = await client.next((m) => m.kind === 'registered' || m.kind === 'error', WAIT_MS);
      client.close();
      const joiner = await openSwarmClient(plan.url, source);
      const join = await openJoin(
        joiner,
        JSON.stringify({ v: RENDEZVOUS_VERSION, kind: 'join', roomId: plan.roomId, pake: wrongOffer(plan.roomId) }),
      );
      joiner.close();
      return {
        claim: `${claim.kind}:${String(claim.code ?? claim.roomId)}`,
        join: `${join.kind}:${String(join.code ?? '')}`,
      };
    }),
  );
  const tally: Record<string, number> = {};
  for (const answer of answers) {
    count(tally, `claim ${answer.claim}`);
    count(tally, `join ${answer.join}`);
  }
  return { tally };
}

const plan = JSON.parse(process.argv[2] ?? '{}') as SwarmPlan;
const modes = { guess, capture, replay, probe, churn, squat } as Record<string, (plan: never) => Promise<object>>;
const hardStop = setTimeout(() => {
  process.stderr.write('swarm: hard time limit reached\n');
  process.exit(2);
}, 180_000);
modes[plan.mode]!(plan as never).then(
  async (result) => {
    const { release, ...summary } = result as { release?: () => void };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
    // A holding swarm keeps its joins open until the test closes stdin.
    if (release) await new Promise((r) => process.stdin.once('end', r).resume());
    release?.();
    clearTimeout(hardStop);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
