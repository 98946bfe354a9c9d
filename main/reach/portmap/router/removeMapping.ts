import { removeNatPmpMapping } from './natPmpClient';
import { removePcpMapping } from './pcpClient';
import type { MappingHandle, RouterContext } from './routerProtocol';
import { removeUpnpMapping } from './upnpClient';

/** Asks the router to delete a mapping with the protocol that made it; false when it did not confirm. Never rejects. */
export async function removeMapping(context: RouterContext, handle: MappingHandle): Promise<boolean> {
  try {
    if (handle.protocol === 'nat-pmp') return await removeNatPmpMapping(context, handle);
    if (handle.protocol === 'pcp') return await removePcpMapping(context, handle);
    return await removeUpnpMapping(context, handle);
  } catch {
    return false;
  }
}
