/**
 * The maintainer's Ed25519 update-signing public key (raw 32 bytes, base64), built into every app. Empty: this
 * source tree has no signing key yet, so a packaged build refuses every update, feed or not (and `npm run dist`
 * refuses to build one with a feed). `npx tsx scripts/signUpdate.ts keygen <private.pem>` prints the value.
 */
export const UPDATE_SIGNING_KEY = '';
