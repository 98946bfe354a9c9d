import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import type { HostAddress, HostAddresses } from '../../../shared/ipc/schemas/lobby';
import { SHORT_CODE } from '../../../shared/roomCode';
import type { NetworkInterfacesLike } from '../../net/discovery';
import { interfaceOf, isVpnInterface, lanAddresses } from './lanAddresses';
import { roomCodesFor } from './roomCodes';

/**
 * The addresses a host may put in its code, by interface (VPN overlays included, last), plus the forced
 * address of the network options (the CLI's or a test's) when no interface lists it as a LAN address.
 * Whether each would get a short code is judged for the default game port.
 */
export function hostAddressList(interfaces: NetworkInterfacesLike, forced: string | undefined): HostAddress[] {
  const list = lanAddresses(interfaces).map(({ interfaceName, address, netmask, vpn }) => ({
    interfaceName,
    address,
    netmask,
    vpn,
  }));
  if (forced !== undefined && !list.some((entry) => entry.address === forced)) {
    const entry = interfaceOf(interfaces, forced);
    const interfaceName = entry?.interfaceName ?? 'configured';
    list.unshift({
      interfaceName,
      address: forced,
      netmask: entry?.netmask ?? '',
      vpn: isVpnInterface(interfaceName, forced),
    });
  }
  return list.map((entry) => ({
    ...entry,
    shortCodeMissing: roomCodesFor(entry.address, SHORT_CODE.DEFAULT_PORT, interfaces).shortCodeMissing,
  }));
}

/** The address list and the one a room uses unless told otherwise: the remembered interface's, else the first. */
export function hostAddresses(
  interfaces: NetworkInterfacesLike,
  forced: string | undefined,
  rememberedInterface: string | null | undefined,
): HostAddresses {
  const addresses = hostAddressList(interfaces, forced);
  const remembered = addresses.find((entry) => entry.interfaceName === rememberedInterface);
  return { addresses, preferred: (remembered ?? addresses[0])?.address ?? null };
}

/**
 * The address a new room advertises: the one asked for (it must still be one of this machine's), else the
 * remembered interface's, else undefined (the host picks the best LAN address, or the forced one).
 */
export function chooseAdvertiseAddress(
  requested: string | undefined,
  rememberedInterface: string | null | undefined,
  interfaces: NetworkInterfacesLike,
  forced: string | undefined,
): string | undefined {
  const list = hostAddressList(interfaces, forced);
  if (requested !== undefined) {
    if (list.some((entry) => entry.address === requested)) return requested;
    throw new IpcError(
      IpcErrorCode.INVALID_ARGUMENT,
      `${requested} is not an address of this computer any more (its network may have changed). Pick another.`,
    );
  }
  return list.find((entry) => entry.interfaceName === rememberedInterface)?.address ?? forced;
}
