/**
 * CPace (draft-irtf-cfrg-cpace) over ristretto255, checked against the draft's vectors: the one PAKE of the app.
 * The internet join's key agreement (main/net/secure) and the lobby's password check both run it.
 */
export {
  startCpace,
  CpaceAbort,
  type CpaceInputs,
  type CpaceOutcome,
  type CpaceParty,
  type RandomBytes,
} from './cpace';
export { prefixFreeCat, parsePrefixFree, concatBytes } from './prefixFree';
