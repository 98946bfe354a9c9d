/** One address entry as `os.networkInterfaces()` returns it (family was numeric in Node 18.0–18.3). */
export interface InterfaceAddressLike {
  readonly address: string;
  readonly netmask: string;
  readonly family: string | number;
  readonly internal: boolean;
}

/**
 * The shape of `os.networkInterfaces()`: interface name → its addresses. It lives in main/base because the
 * network options name it and main/base imports nothing above it; discovery re-exports it.
 */
export type NetworkInterfacesLike = Readonly<Record<string, readonly InterfaceAddressLike[] | undefined>>;
