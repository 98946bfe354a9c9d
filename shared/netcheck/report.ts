import { z } from 'zod';

/** One IPv4 address of this machine and whether discovery searches its subnet. */
export const interfaceReportSchema = z.object({
  name: z.string(),
  address: z.string(),
  netmask: z.string(),
  /** Bits set in the netmask; null when the mask is not a valid IPv4 mask. */
  prefixLength: z.number().int().min(0).max(32).nullable(),
  internal: z.boolean(),
  /** The directed broadcast discovery sends to on this subnet; null when the interface is skipped. */
  broadcast: z.string().nullable(),
  /** Why the interface is not searched, in words; null when it is. */
  skipped: z.string().nullable(),
});

/** Whether LAN Party could listen on one of its ports. */
export const portCheckSchema = z.object({
  role: z.enum(['discovery', 'game']),
  port: z.number().int().min(0).max(65535),
  bindAddress: z.string(),
  ok: z.boolean(),
  /** The port actually bound (differs from `port` when 0, "any free port", was asked for). */
  boundPort: z.number().int().min(1).max(65535).nullable(),
  /** errno-style code of the failure (EADDRINUSE, EACCES…); null on success. */
  code: z.string().nullable(),
  message: z.string(),
});

/** A destination a discovery request could not be sent to. */
export const sendFailureReportSchema = z.object({
  target: z.string(),
  code: z.string(),
  message: z.string(),
});

/** Whether this machine heard and answered its own discovery request. */
export const selfDiscoveryReportSchema = z.object({
  /** heard: our responder answered; not-heard: silence; failed: the test itself could not run; skipped: not asked. */
  status: z.enum(['heard', 'not-heard', 'failed', 'skipped']),
  /** The discovery port searched; null when the responder could not start. */
  port: z.number().int().min(1).max(65535).nullable(),
  targets: z.array(z.string()),
  sendFailures: z.array(sendFailureReportSchema),
  message: z.string(),
});

/** The UDP receive buffer asked of the OS and what it granted. */
export const receiveBufferReportSchema = z.object({
  requestedBytes: z.number().int().nonnegative(),
  /** As the OS reports it (Linux reports double the usable size); null when it could not be read. */
  grantedBytes: z.number().int().nonnegative().nullable(),
  status: z.enum(['ok', 'clamped', 'unknown']),
  message: z.string(),
});

/** What STUN servers saw of this machine, and what that means for internet rooms. */
export const natReportSchema = z.object({
  /**
   * open: no NAT; endpoint-independent: one public port for every destination; symmetric: a port per destination;
   * mapped: behind a NAT of unknown kind (one server answered); blocked: no answer; failed: could not run;
   * skipped: no server configured.
   */
  status: z.enum(['open', 'endpoint-independent', 'symmetric', 'mapped', 'blocked', 'failed', 'skipped']),
  /** Each server asked and the public address:port it saw (null: no answer). */
  mappings: z.array(z.object({ server: z.string(), mapped: z.string().nullable() })),
  title: z.string(),
  message: z.string(),
});

/** What the home router offers for opening the room's port (UPnP IGD, NAT-PMP, PCP), and its external address. */
export const routerReportSchema = z.object({
  /** offered: at least one protocol answered; none: nothing answered; skipped: port mapping is off. */
  status: z.enum(['offered', 'none', 'skipped']),
  /** The gateway asked (null: none found, or skipped). */
  gateway: z.string().nullable(),
  /** The protocols that answered, most preferred first. */
  offers: z.array(z.enum(['nat-pmp', 'pcp', 'upnp'])),
  /** The router's public address as it reports it (null: it did not say). */
  externalAddress: z.string().nullable(),
  title: z.string(),
  message: z.string(),
});

/** How this machine's NAT looks to the DHT, where internet rooms with no router mapping meet their guests. */
export const dhtReportSchema = z.object({
  /**
   * open: reachable unasked; consistent: a NAT that keeps its ports (punching works); randomized: a new port per
   * destination; unknown: too few answers; failed: the DHT did not answer; skipped: the DHT is off.
   */
  status: z.enum(['open', 'consistent', 'randomized', 'unknown', 'failed', 'skipped']),
  /** The public address:port the DHT sees (null: not seen; port 0: randomized). */
  publicAddress: z.string().nullable(),
  title: z.string(),
  message: z.string(),
});

/** One thing the player can do, with copyable commands where there are any. */
export const networkAdviceSchema = z.object({
  id: z.string(),
  /** info: a tip for this platform; warning: something works less well; problem: a check failed. */
  severity: z.enum(['info', 'warning', 'problem']),
  title: z.string(),
  detail: z.string(),
  commands: z.array(z.string()),
});

/** Result of the network check: plain data, safe to send over IPC and to validate on arrival. */
export const networkCheckReportSchema = z.object({
  version: z.literal(1),
  platform: z.string(),
  checkedAt: z.iso.datetime(),
  interfaces: z.array(interfaceReportSchema),
  /** Every destination a discovery round sends to: each directed broadcast, then 255.255.255.255. */
  broadcastTargets: z.array(z.string()),
  ports: z.array(portCheckSchema),
  selfDiscovery: selfDiscoveryReportSchema,
  receiveBuffer: receiveBufferReportSchema,
  nat: natReportSchema,
  router: routerReportSchema,
  /** Absent in reports from before the DHT. */
  dht: dhtReportSchema.optional(),
  advice: z.array(networkAdviceSchema),
  /** True when no check found a problem. */
  ok: z.boolean(),
});

/** {@link NetworkCheckReport.dht}. */
export type DhtReport = z.infer<typeof dhtReportSchema>;
/** One row of {@link NetworkCheckReport.interfaces}. */
export type InterfaceReport = z.infer<typeof interfaceReportSchema>;
/** One row of {@link NetworkCheckReport.ports}. */
export type PortCheck = z.infer<typeof portCheckSchema>;
/** {@link NetworkCheckReport.selfDiscovery}. */
export type SelfDiscoveryReport = z.infer<typeof selfDiscoveryReportSchema>;
/** {@link NetworkCheckReport.receiveBuffer}. */
export type ReceiveBufferReport = z.infer<typeof receiveBufferReportSchema>;
/** {@link NetworkCheckReport.nat}. */
export type NatReport = z.infer<typeof natReportSchema>;
/** {@link NetworkCheckReport.router}. */
export type RouterReport = z.infer<typeof routerReportSchema>;
/** One item of {@link NetworkCheckReport.advice}. */
export type NetworkAdvice = z.infer<typeof networkAdviceSchema>;
/** The whole network check result. */
export type NetworkCheckReport = z.infer<typeof networkCheckReportSchema>;
