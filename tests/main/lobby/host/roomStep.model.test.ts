import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { PROVEN_MAX, resumeToken, type RoomEffect } from '../../../../main/lobby/host/roomStep';
import { DEFAULT_LOBBY_HOST_LIMITS } from '../../../../main/lobby/host/lobbyHostLimits';
import { RoomKit, hello, lanPeer } from './roomKit';

/**
 * A model-based test of the room's step: seeded random sequences of inputs from honest guests (who keep their
 * tokens and know the password) and hostile sources (wrong proofs, forged and replayed tokens, garbage, silence)
 * against the invariants the room promises. LAB_ROOM_STEPS raises the number of steps (10M by hand).
 */
const STEPS = Number(process.env.LAB_ROOM_STEPS ?? 100_000);
const STEPS_PER_RUN = 500;

type Action =
  | { kind: 'arrive'; actor: number; source: number }
  | { kind: 'hello'; pick: number; variant: number }
  | { kind: 'proof'; pick: number; variant: number }
  | { kind: 'say'; pick: number; variant: number }
  | { kind: 'depart'; pick: number; silent: boolean }
  | { kind: 'links'; bump: boolean }
  | { kind: 'pings' }
  | { kind: 'advance'; ms: number }
  | { kind: 'host'; variant: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('arrive' as const), actor: fc.nat(11), source: fc.nat(7) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('hello' as const), pick: fc.nat(), variant: fc.nat(9) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('proof' as const), pick: fc.nat(), variant: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('say' as const), pick: fc.nat(), variant: fc.nat(4) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('depart' as const), pick: fc.nat(), silent: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('links' as const), bump: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pings' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(4000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('host' as const), variant: fc.nat(4) }) },
);

/** Actors 0–5 are honest guests, 6–11 hostile. */
const honest = (actor: number) => actor < 6;
const DROP_REASONS = new Set(['refused', 'no-hello-in-time', 'pre-lobby-full', 'replaced', 'kicked', 'room-closed']);
const LEFT_REASONS = new Set(['left', 'kicked', 'timed-out']);

/**
 * Plain assertions (node:assert), not `expect`: they run several times a step, and each `expect` call cost ~10 µs of
 * the matcher state's bookkeeping, half of this test's CPU.
 */
function atMost(value: number, bound: number, what: string): void {
  assert.ok(value <= bound, `${what}: ${value} over ${bound}`);
}

function run(actions: readonly Action[], passwordRoom: boolean): void {
  const limits = { ...DEFAULT_LOBBY_HOST_LIMITS, tries: { ...DEFAULT_LOBBY_HOST_LIMITS.tries, maxSources: 16 } };
  const kit = new RoomKit({ passwordRoom, limits, graceMs: 5000 }, 6);
  const actorOf = new Map<number, number>();
  const live: number[] = [];
  const helloed = new Set<number>();
  const proved = new Set<number>();
  const challenges = new Set<number>();
  const ownerOf = new Map<number, number>();
  /** Each honest actor's seat and current token; every seat's last token. */
  const tokens = new Map<number, { seat: number; token: string }>();
  const seatToken = new Map<number, string>();
  const stolen: string[] = [];
  let nextId = 1;
  const arrivals = new Map<number, ReturnType<typeof lanPeer>>();
  let seen: Record<string, unknown> | undefined;
  let received = 0;
  const pick = (n: number) => (live.length === 0 ? undefined : live[n % live.length]!);

  const check = (effects: readonly RoomEffect[], fedResume: Map<number, string>) => {
    for (const e of effects) {
      if (e.kind === 'challenge') challenges.add(e.peerId);
      if (e.kind === 'drop') assert.ok(DROP_REASONS.has(e.reason), `drop reason ${e.reason}`);
      if (e.kind === 'send' && e.message.type === 'lobby.event' && e.message.payload.event.kind === 'left')
        assert.ok(LEFT_REASONS.has(e.message.payload.event.reason), `left reason ${e.message.payload.event.reason}`);
      if (e.kind !== 'send' || e.message.type !== 'lobby.welcome') continue;
      const { you, resume } = e.message.payload;
      const actor = actorOf.get(e.peerId)!;
      // No seat without a hello, and in a password room without a proof that checked, unless it is a resume.
      assert.ok(helloed.has(e.peerId), `peer ${e.peerId} seated without a hello`);
      if (you === e.peerId) {
        if (passwordRoom) assert.ok(proved.has(e.peerId), `peer ${e.peerId} seated without a proof`);
        ownerOf.set(you, actor);
      } else {
        // A resume: only with the seat's last token (hostile actors share theirs: they are one party), so an honest
        // guest's seat is only ever taken back by that guest.
        assert.equal(fedResume.get(e.peerId), seatToken.get(you), `seat ${you} resumed without its last token`);
        if (honest(ownerOf.get(you)!)) assert.equal(actor, ownerOf.get(you), `honest seat ${you} taken by another actor`);
      }
      seatToken.set(you, resume!);
      if (honest(actor)) tokens.set(actor, { seat: you, token: resume! });
      else stolen.push(resume!);
    }
    const s = kit.state;
    // Bounded by capacity and limits.
    atMost(s.door.size, limits.preLobbySlots, 'door');
    atMost(s.backoff.size, limits.tries.maxSources, 'backoff sources');
    atMost(s.proven.size, PROVEN_MAX, 'proven sources');
    atMost(s.lobby.players.length, s.lobby.capacity, 'players');
    assert.equal(s.seats.size, s.lobby.players.length - 1, 'one seat per guest');
    atMost(s.chat.size + s.ready.size, 2 * s.seats.size, 'chat and ready records');
    for (const [seat, record] of s.seats) {
      assert.ok(s.lobby.players.some((p) => p.id === seat), `seat ${seat} not among the players`);
      if (record.peer) assert.equal(s.seatOf.get(record.peer.id), seat, `seat ${seat}'s peer points elsewhere`);
      // An honest guest's seat is held by that guest only.
      if (record.peer && honest(ownerOf.get(seat)!))
        assert.equal(actorOf.get(record.peer.id), ownerOf.get(seat), `honest seat ${seat} held by another actor`);
    }
    atMost(s.seatOf.size, s.seats.size, 'peer-to-seat entries');
  };

  for (const a of actions) {
    const fedResume = new Map<number, string>();
    let effects: RoomEffect[] = [];
    switch (a.kind) {
      case 'arrive': {
        const id = nextId++;
        actorOf.set(id, a.actor);
        live.push(id);
        // Honest actors each have an address; hostile ones share a few (and may share an honest one's).
        const source =
          honest(a.actor) || a.source < 2 ? `10.0.0.${honest(a.actor) ? a.actor : a.source}` : `10.9.0.${a.source}`;
        arrivals.set(id, lanPeer(id, source));
        effects = kit.arrive(arrivals.get(id)!);
        break;
      }
      case 'hello': {
        const id = pick(a.pick);
        if (id === undefined) break;
        const actor = actorOf.get(id)!;
        helloed.add(id);
        let payload: unknown = hello(`A${actor}`);
        if (honest(actor)) {
          const own = tokens.get(actor);
          if (own && a.variant < 5) {
            const rejoin = kit.resumeOf(own.seat, arrivals.get(id)!);
            payload = hello(`A${actor}`, rejoin);
            fedResume.set(id, own.token);
            seen = rejoin;
          }
        } else {
          const seats = [...kit.state.seats.keys()];
          const target = seats.length > 0 ? seats[a.pick % seats.length]! : 1;
          const forged = [
            resumeToken('0123456789abcdef', target, 'f'.repeat(32)),
            resumeToken('ffffffffffffffff', 1, '0'.repeat(32)),
            stolen.at(-1) ?? 'x',
            'r3.garbage',
          ];
          if (a.variant === 3 && seen) {
            // An honest rejoin's token and proof, sniffed and replayed on this connection.
            payload = hello(`E${actor}`, seen);
            fedResume.set(id, String(seen.resume));
          } else if (a.variant < 4) {
            payload = hello(`E${actor}`, { resume: forged[a.variant] });
            fedResume.set(id, forged[a.variant]!);
          } else if (a.variant === 4) payload = { v: 1 };
          else if (a.variant === 5) payload = 'not an object';
          else if (a.variant === 6) payload = hello('\u200b');
        }
        effects = kit.hello(id, payload);
        break;
      }
      case 'proof': {
        const id = pick(a.pick);
        // The shell feeds a verdict only for a connection it holds a challenge for.
        if (id === undefined || !challenges.has(id)) break;
        challenges.delete(id);
        const good = honest(actorOf.get(id)!);
        if (good) proved.add(id);
        const verdict = good
          ? ({ ok: true, confirm: 'c'.repeat(86), isk: 'ab'.repeat(32) } as const)
          : ({ ok: false, reason: a.variant === 0 ? 'malformed' : 'mismatch' } as const);
        effects = kit.feed({ kind: 'proof', peerId: id, verdict, pingMs: a.variant });
        break;
      }
      case 'say': {
        const id = pick(a.pick);
        if (id === undefined) break;
        const payload = [{ text: 'hi' }, { ready: true }, { text: 42 }, null, { ready: 'yes' }][a.variant];
        effects = kit.feed({ kind: a.variant % 2 === 0 ? 'chat' : 'ready', peerId: id, payload });
        break;
      }
      case 'depart': {
        const id = pick(a.pick);
        if (id === undefined) break;
        live.splice(live.indexOf(id), 1);
        challenges.delete(id);
        effects = kit.feed({ kind: 'departed', peerId: id, silent: a.silent, wallNow: kit.now });
        break;
      }
      case 'links':
        if (a.bump) received += 1;
        effects = kit.feed({ kind: 'links', samples: live.map((peerId) => ({ peerId, received })) });
        break;
      case 'pings':
        effects = kit.feed({ kind: 'pings', pings: live.map((id) => [id, id * 1.5] as const) });
        break;
      case 'advance':
        effects = kit.advance(a.ms);
        break;
      case 'host': {
        const seats = [...kit.state.seats.keys()];
        if (a.variant === 0 && seats.length > 0) effects = kit.feed({ kind: 'kick', seat: seats[0]! });
        else if (a.variant === 1 && kit.state.lobby.phase === 'lobby') effects = kit.feed({ kind: 'start' });
        else if (a.variant === 2) effects = kit.feed({ kind: 'end-round' });
        else if (a.variant === 3) effects = kit.feed({ kind: 'host-chat', text: 'host' });
        break;
      }
    }
    // A dropped connection goes: the transport tells the room it departed.
    for (const e of effects) {
      if (e.kind !== 'drop' || !live.includes(e.peerId)) continue;
      live.splice(live.indexOf(e.peerId), 1);
      challenges.delete(e.peerId);
      check(kit.feed({ kind: 'departed', peerId: e.peerId, silent: false, wallNow: kit.now }), new Map());
    }
    check(effects, fedResume);
  }
}

describe('the room step under random honest and hostile inputs', () => {
  for (const passwordRoom of [false, true]) {
    it(`keeps its invariants over ${STEPS / 2} steps (${passwordRoom ? 'a password room' : 'an open room'})`, () => {
      fc.assert(
        fc.property(fc.array(action, { minLength: STEPS_PER_RUN, maxLength: STEPS_PER_RUN }), (actions) =>
          run(actions, passwordRoom),
        ),
        { numRuns: Math.max(1, Math.round(STEPS / 2 / STEPS_PER_RUN)), seed: 38 },
      );
    }, Math.max(600_000, STEPS));
  }
});
