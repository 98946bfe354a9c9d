// Every bound on what a room may contain, in one place: the host keeps to them and a guest refuses a room that
// does not (a hostile host could otherwise push megabytes of state or thousands of players into our screens).

/** Fewest and most players a room takes, the host included (LobbyHost's limits). */
export const ROOM_CAPACITY = { MIN: 2, MAX: 16, DEFAULT: 8 } as const;

/** Longest room name, in characters (discovery shows up to 64; lists stay readable at 40). */
export const ROOM_NAME_MAX = 40;

/** Longest player name on the lobby wire, in UTF-16 units (an emoji counts two). */
export const LOBBY_NAME_UNITS = 24;

/** Longest chat line, in characters. */
export const CHAT_TEXT_MAX = 200;

/** Highest player id (transport peer ids count up from 1; the host is 0). */
export const MAX_PLAYER_ID = 2 ** 31 - 1;

/** Pings are reported up to this many ms (a link slower than that is gone anyway). */
export const MAX_PING_MS = 60_000;

/** Longest reason text in a rejection or closing notice. */
export const NOTICE_TEXT_MAX = 300;

/** Most seconds a host may ask a guest to wait before trying again. */
export const MAX_RETRY_AFTER_SEC = 3600;
