import { checkCandidateLine, parseIceParameters, IceParametersError, type IceParameters } from '../../net/ice';
import { openSignal } from '../../net/secure';

/** Why a sealed signal held no ICE parameters: not sealed under the key, not JSON, or not what the schema takes. */
export type SealedIceFailure = 'unsealed' | 'not-json' | 'invalid';

/** What {@link openIceParameters} read: the peer's checked parameters, or why there are none (with words for a log). */
export type SealedIceResult =
  | { readonly ok: true; readonly parameters: IceParameters }
  | { readonly ok: false; readonly reason: SealedIceFailure; readonly detail: string };

/**
 * The one reader of a peer's sealed ICE parameters, host and guest alike: opens the signal under `key`, parses its
 * JSON and checks it against the schema and each candidate line, never throwing (a code-holder can seal anything,
 * and a throw in a handler nothing awaits would close the app).
 */
export function openIceParameters(key: Uint8Array, sealed: string): SealedIceResult {
  const text = openSignal(key, sealed);
  if (text === undefined)
    return { ok: false, reason: 'unsealed', detail: 'the peer sent a signal not sealed under the agreed key' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json', detail: 'the peer sealed ICE parameters that are not JSON' };
  }
  try {
    const parameters = parseIceParameters(json);
    for (const line of parameters.candidates) checkCandidateLine(line);
    return { ok: true, parameters };
  } catch (error) {
    if (!(error instanceof IceParametersError)) throw error;
    return { ok: false, reason: 'invalid', detail: error.message };
  }
}
