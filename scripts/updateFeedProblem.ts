/** Why a build must not be made with this update feed and signing key, or undefined when it may. */
export function updateFeedProblem(feedUrl: string, signingKey: string): string | undefined {
  const feed = feedUrl.trim();
  if (feed === '') return undefined;
  if (!/^https:\/\/[^/\s]+/i.test(feed)) {
    return `LAN_PARTY_UPDATE_URL must be an https:// URL (got ${feed}): over http anyone on the network can swap updates`;
  }
  if (signingKey === '') {
    return 'an update feed needs the update-signing public key in main/shell/desktop/updateSigningKey.ts (scripts/signUpdate.ts keygen)';
  }
  return undefined;
}
