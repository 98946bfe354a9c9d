/**
 * LAN Party's fixed UDP ports. Fixed so a firewall rule (ufw, firewalld, a router) can name them once:
 * discovery is gale.net's 9998, the game port is where a room listens unless the host picks another.
 */
export const LAN_PARTY_PORTS = {
  DISCOVERY: 9998,
  GAME: 9000,
} as const;
