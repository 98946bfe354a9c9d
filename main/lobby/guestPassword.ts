import type { RandomBytes } from '../net/pake/index';
import type { Logger } from '../base/logger';
import { LobbyMessage, hostMessageSchemas, type HostMessages } from '../../shared/lobby/lobbyMessages';
import { describeIssues } from '../../shared/ipc/describeIssues';
import { LOBBY_END_MESSAGES, LobbyJoinError } from './lobbyErrors';
import {
  ChallengeError,
  answerChallenge,
  systemRandom,
  type GuestPasswordAnswer,
  type PasswordProof,
} from './passwordExchange';

/** The refusal when a room asked for a password but could not prove it knew it: someone pretending to be it. */
export const HOST_UNPROVEN_MESSAGE =
  'This host did not prove it knows the room password: it may be someone pretending to be the room. You did not join. Check the room with the person hosting it.';

/** The refusal of a password challenge this build cannot answer (another version, or not a LAN Party host). */
export const CHALLENGE_UNREADABLE_MESSAGE =
  "The host's password check is not one this version of LAN Party can answer. Update both to the same version.";

/** What the check needs of the connection: the names the exchange is bound to. */
export interface PasswordLink {
  readonly token: bigint | undefined;
  readonly channelBinding: Uint8Array | undefined;
}

/**
 * One join's side of a password room's check (passwordExchange.ts): answers the host's one challenge, then
 * accepts a welcome only if the host confirmed it knew the password too, or (coming back to a seat) if the
 * room never asked.
 */
export class GuestPasswordCheck {
  private challenged = false;
  private answer: GuestPasswordAnswer | undefined;

  constructor(
    private readonly link: PasswordLink,
    private readonly password: string | undefined,
    private readonly logger: Logger,
    private readonly random: RandomBytes = systemRandom,
  ) {}

  /**
   * The host's challenge: the proof to send, undefined for a repeated challenge (one answer per join), or the
   * refusal to end the join with (no password given, a challenge of another design).
   */
  async challenge(payload: unknown): Promise<Answer> {
    if (this.challenged) return { kind: 'ignore' };
    this.challenged = true;
    if (this.password === undefined) {
      return { kind: 'refuse', error: new LobbyJoinError('wrong-password', LOBBY_END_MESSAGES['wrong-password']) };
    }
    const parsed = hostMessageSchemas[LobbyMessage.CHALLENGE].safeParse(payload);
    if (!parsed.success) return this.unreadable(describeIssues(parsed.error));
    const channel = { token: this.link.token ?? 0n, binding: this.link.channelBinding };
    try {
      this.answer = await answerChallenge(this.password, parsed.data, channel, this.random);
    } catch (error) {
      if (error instanceof ChallengeError) return this.unreadable(error.message);
      throw error;
    }
    return { kind: 'prove', proof: this.answer.proof };
  }

  /** A welcome's verdict: undefined to take it, or the refusal when the room is not proven to be the real one. */
  welcome(welcome: HostMessages['lobby.welcome'], resuming: boolean): LobbyJoinError | undefined {
    if (this.challenged) {
      if (this.answer?.hostConfirmed(welcome.confirm)) return undefined;
      this.logger.warn("the host welcomed us without a valid password confirmation: it may not be the room's host");
      return new LobbyJoinError('invalid-room', HOST_UNPROVEN_MESSAGE);
    }
    // A password room that let us in without asking (a seat's token stands for the password when coming back).
    if (welcome.state.passwordProtected && !resuming) {
      this.logger.warn('a password room welcomed us without checking the password');
      return new LobbyJoinError('invalid-room', HOST_UNPROVEN_MESSAGE);
    }
    return undefined;
  }

  private unreadable(why: string): Answer {
    this.logger.warn(`the host sent a password challenge we cannot answer: ${why}`);
    return { kind: 'refuse', error: new LobbyJoinError('invalid-room', CHALLENGE_UNREADABLE_MESSAGE) };
  }
}

/** What to do with a challenge. */
export type Answer =
  | { readonly kind: 'prove'; readonly proof: PasswordProof }
  | { readonly kind: 'ignore' }
  | { readonly kind: 'refuse'; readonly error: LobbyJoinError };
