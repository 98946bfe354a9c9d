/** Why an ICE session could not connect, as a code for the UI and a sentence for people. */
export type IceFailure = 'no-relay' | 'relay-failed' | 'timeout' | 'no-candidates' | 'closed';

/** A failed {@link IceSession} gather or connect, with its {@link IceFailure} code. */
export class IceConnectError extends Error {
  override name = 'IceConnectError';
  constructor(
    readonly failure: IceFailure,
    message: string,
  ) {
    super(message);
  }
}
