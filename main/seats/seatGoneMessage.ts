import type { ResumeRefusal } from './resumeToken';

/** What a guest whose resume token was refused reads: why it has no seat to come back to. */
export function seatGoneMessage(reason: ResumeRefusal): string {
  switch (reason) {
    case 'no-seat':
    case 'expired':
      return 'Your seat in the room was given up: you were away longer than the host waits.';
    case 'other-address':
      return 'Your seat waits for the computer that left it: this connection comes from another address.';
    case 'used':
      return 'Your seat was already taken back by a newer connection of yours.';
    case 'other-room':
    case 'forged':
    case 'malformed':
      return 'The room did not recognise you: join it again.';
  }
}
