/** The LAN reach's door: the reach itself and the address helpers a room's host and the CLI banner use. */
export { createLanReach, roomCodeFailure, OTHER_ROOM_SENTENCE, type LanReach, type LanReachOptions } from './lanReach';
export { lanAddresses, pickAdvertiseAddress, type LanAddress } from './lanAddresses';
export { roomCodesFor, type RoomCodes } from './roomCodes';
export { advertiseRoom, type RoomAdvertFacts } from './roomAdvert';
