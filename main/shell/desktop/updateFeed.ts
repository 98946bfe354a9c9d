// Replaced at build time by vite.config.ts from LAN_PARTY_UPDATE_URL; undeclared under vitest.
declare const __LAN_PARTY_UPDATE_URL__: string | undefined;

/** The generic update feed this build was made with; '' when LAN_PARTY_UPDATE_URL was not set (updates off). */
export const UPDATE_FEED_URL: string = typeof __LAN_PARTY_UPDATE_URL__ === 'string' ? __LAN_PARTY_UPDATE_URL__ : '';
