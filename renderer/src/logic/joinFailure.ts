import type { IpcErrorCode } from '../../../shared/ipc/errors';

/** How the join screen presents a failed join: a headline, and whether to ask for a password or suggest the check. */
export interface JoinFailureView {
  readonly title: string;
  readonly askPassword: boolean;
  readonly suggestNetcheck: boolean;
}

/** Presentation of a join failure by its IpcError code (main maps each lobby end code to one). Pure. */
export function joinFailureView(code: IpcErrorCode): JoinFailureView {
  switch (code) {
    case 'permission-denied':
      return { title: 'Password needed', askPassword: true, suggestNetcheck: false };
    case 'invalid-argument':
      return { title: 'Check the code', askPassword: false, suggestNetcheck: false };
    case 'not-found':
      return { title: 'Host not found', askPassword: false, suggestNetcheck: true };
    case 'unavailable':
      return { title: 'Couldn’t reach the room', askPassword: false, suggestNetcheck: true };
    case 'failed-precondition':
      return { title: 'Can’t join this room', askPassword: false, suggestNetcheck: false };
    default:
      return { title: 'Something went wrong', askPassword: false, suggestNetcheck: false };
  }
}
