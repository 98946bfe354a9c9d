/** The internet reach's door: what createBackend, the network check and the CLI may use of it. */
export { createInternetReach, type InternetReachOptions } from './internetReach';
export { stunEndpointsForSettings } from './iceServers';
export { welcomeRelays } from './rendezvousGuest';
