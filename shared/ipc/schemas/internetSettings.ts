import { z } from 'zod';
import { plainRendezvousHostAllowed } from './plainRendezvousHost';

/** The host of a `ws://` URL the schema's pattern already took (a [bracketed] IPv6 address or a name). */
const hostOf = (url: string) => /^wss?:\/\/(\[[^\]]*\]|[^:/]*)/.exec(url)?.[1] ?? '';

/**
 * A rendezvous service address: `wss://` host[:port][/path] (plain `ws://` only to loopback, private and lab
 * addresses: it would carry the room's secret and TURN credentials in clear), no query or fragment, at most
 * 300 characters.
 */
export const rendezvousUrlSchema = z
  .string()
  .trim()
  .max(300, 'At most 300 characters')
  .regex(
    /^wss?:\/\/[A-Za-z0-9.\-[\]:]+(\/[\x21-\x7e]*)?$/,
    'Give a ws:// or wss:// address, like wss://rdv.example.org/rendezvous/v1',
  )
  .refine((url) => !/[?#]/.test(url), 'No query or fragment')
  .refine(
    (url) => !url.startsWith('ws://') || plainRendezvousHostAllowed(hostOf(url)),
    'Use wss:// for this rendezvous: plain ws:// would send the room’s secret and relay passwords in clear, so it is only for loopback and private lab addresses',
  );

/** A server as host:port (a name, an IPv4 address or a [bracketed] IPv6 address, then the port). */
const hostPortSchema = (example: string) =>
  z
    .string()
    .trim()
    .max(260)
    .regex(/^([A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]):(\d{1,5})$/, `Give host:port, like ${example}`)
    .refine((text) => {
      const port = Number(text.slice(text.lastIndexOf(':') + 1));
      return port >= 1 && port <= 65535;
    }, 'The port must be 1–65535');

/** A TURN server as host:port. */
export const turnServerSchema = hostPortSchema('turn.example.org:3478');

/** A HyperDHT bootstrap node as host:port. */
export const dhtNodeSchema = hostPortSchema('203.0.113.10:49737');

/** Most bootstrap nodes a player may list. */
export const MAX_DHT_BOOTSTRAP_NODES = 16;

/**
 * Which TURN relay internet rooms use when no direct path works: none; the one the rendezvous names with
 * credentials it mints for each connection (coturn's shared-secret mode); or a fixed server and account.
 */
export const turnSettingsSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  z.strictObject({ mode: z.literal('shared-secret') }),
  z.strictObject({
    mode: z.literal('static'),
    server: turnServerSchema,
    username: z.string().min(1, 'Give the TURN user name').max(128),
    password: z.string().min(1, 'Give the TURN password').max(128),
  }),
]);

/**
 * Settings for rooms over the internet. `dhtBootstrap` replaces HyperDHT's public bootstrap nodes where a room
 * with no router mapping meets its guests (absent: the public ones); read when the app first uses the DHT.
 */
export const internetSettingsSchema = z.strictObject({
  rendezvousUrl: rendezvousUrlSchema.nullable(),
  turn: turnSettingsSchema,
  dhtBootstrap: z
    .array(dhtNodeSchema)
    .min(1, 'Give at least one bootstrap node, or remove the list to use the public ones')
    .max(MAX_DHT_BOOTSTRAP_NODES, 'At most 16 bootstrap nodes')
    .optional(),
});

/** The internet-room settings. */
export type InternetSettings = z.output<typeof internetSettingsSchema>;

/** A new install's (and an old settings file's): no rendezvous, so internet rooms are off; TURN from the rendezvous. */
export const DEFAULT_INTERNET_SETTINGS: InternetSettings = { rendezvousUrl: null, turn: { mode: 'shared-secret' } };

/** Whether internet rooms can be used: only once a rendezvous service is configured. */
export function internetRoomsEnabled(settings: InternetSettings | undefined): boolean {
  return (settings ?? DEFAULT_INTERNET_SETTINGS).rendezvousUrl !== null;
}
