/** Plain sentences for the errno codes a join meets; the raw code goes behind "Details". */
const SENTENCES: Readonly<Record<string, string>> = {
  ENETUNREACH:
    'Your computer has no route to that network. The code may be from another network, or this computer is offline.',
  EHOSTUNREACH: 'That computer cannot be reached from here. It may be off, asleep, or on another network.',
  EADDRNOTAVAIL: 'That address cannot be used from this computer. Check the code with the host.',
  ECONNREFUSED: 'That computer refused the connection. LAN Party may not be running there.',
  EACCES: 'This computer blocked the connection (a firewall or a permission). Run the network check.',
  EPERM: 'This computer blocked the connection (a firewall or a permission). Run the network check.',
  ETIMEDOUT: 'The host did not answer in time.',
  ENOTFOUND: 'That computer name could not be found on the network.',
  EINVAL: 'That address cannot be used. Check the code with the host.',
};

/** macOS answers "no route" when the app has no Local Network permission (Apple TN3179). */
const MACOS_LOCAL_NETWORK =
  ' On a Mac, also check System Settings → Privacy & Security → Local Network allows LAN Party.';

/** The first errno-style code (ENETUNREACH, ECONNREFUSED…) in a text, if any. */
export function errnoIn(text: string): string | undefined {
  return /\bE[A-Z]{3,15}\b/.exec(text)?.[0];
}

/** A sentence a player understands for an errno code; a general one for codes not listed. */
export function networkErrorSentence(code: string | undefined, platform: string = process.platform): string {
  const sentence = (code !== undefined ? SENTENCES[code] : undefined) ?? 'The connection to that address failed.';
  return platform === 'darwin' && code === 'EHOSTUNREACH' ? sentence + MACOS_LOCAL_NETWORK : sentence;
}
