/**
 * UPnP IGD messages, pure: the SSDP search (UPnP Device Architecture 1.1 §1.3.2), the device description's
 * WAN connection service (§2.3), and the SOAP actions of WANIPConnection v1/v2 and WANPPPConnection v1 (§3.2).
 */

/** SSDP's multicast group and port. */
export const Ssdp = { ADDRESS: '239.255.255.250', PORT: 1900 } as const;

/** The search targets sent: IGD v1 and v2 (a v2 router answers v1 searches too, but not every one). */
export const IGD_SEARCH_TARGETS = [
  'urn:schemas-upnp-org:device:InternetGatewayDevice:1',
  'urn:schemas-upnp-org:device:InternetGatewayDevice:2',
] as const;

/** The WAN connection services this client drives, most preferred first (v2 has AddAnyPortMapping). */
export const WAN_SERVICE_TYPES = [
  'urn:schemas-upnp-org:service:WANIPConnection:2',
  'urn:schemas-upnp-org:service:WANIPConnection:1',
  'urn:schemas-upnp-org:service:WANPPPConnection:1',
] as const;

/** A router's WAN connection service: where to POST actions and which service type to name. */
export interface IgdService {
  readonly controlUrl: string;
  readonly serviceType: string;
}

/** A SOAP answer: the out-arguments by name, or the UPnP error (718 ConflictInMappingEntry, 725 OnlyPermanentLeasesSupported…). */
export type SoapResult =
  | { readonly ok: true; readonly values: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly errorCode: number; readonly description: string };

/** An M-SEARCH request (§1.3.2): MX 1 keeps the router's answer within our probe window. */
export function encodeSsdpSearch(searchTarget: string): Uint8Array {
  const text =
    'M-SEARCH * HTTP/1.1\r\n' +
    `HOST: ${Ssdp.ADDRESS}:${Ssdp.PORT}\r\n` +
    'MAN: "ssdp:discover"\r\n' +
    'MX: 1\r\n' +
    `ST: ${searchTarget}\r\n\r\n`;
  return new TextEncoder().encode(text);
}

/** The LOCATION of a search response (§1.3.3) that names an IGD, or null for anything else. */
export function parseSsdpResponse(datagram: Uint8Array): { readonly location: string; readonly st: string } | null {
  if (datagram.length > 4096) return null;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(datagram);
  const lines = text.split('\r\n');
  if (!/^HTTP\/1\.[01] 200\b/.test(lines[0] ?? '')) return null;
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const location = headers.get('location');
  const st = headers.get('st') ?? '';
  if (!location || !/^http:\/\//i.test(location)) return null;
  if (!st.startsWith('urn:schemas-upnp-org:device:InternetGatewayDevice:')) return null;
  return { location, st };
}

/**
 * The preferred WAN connection service of a device description, its control URL made absolute (against URLBase
 * when the description has one, else its own location); null when the device offers none.
 */
export function parseIgdDescription(xml: string, location: string): IgdService | null {
  const base = elementTexts(xml, 'URLBase')[0]?.trim() || location;
  const offered = new Map<string, string>();
  for (const service of elementTexts(xml, 'service')) {
    const type = elementTexts(service, 'serviceType')[0]?.trim();
    const control = elementTexts(service, 'controlURL')[0]?.trim();
    if (type && control && !offered.has(type)) offered.set(type, control);
  }
  for (const type of WAN_SERVICE_TYPES) {
    const control = offered.get(type);
    if (control === undefined) continue;
    try {
      return { controlUrl: new URL(unescapeXml(control), base).toString(), serviceType: type };
    } catch {
      return null;
    }
  }
  return null;
}

/** A SOAP request for one action: the body and the SOAPAction header (§3.2.1); arguments in the order given. */
export function encodeSoapRequest(
  serviceType: string,
  action: string,
  args: readonly (readonly [string, string | number])[],
): { readonly body: string; readonly soapAction: string } {
  const inner = args.map(([name, value]) => `<${name}>${escapeXml(String(value))}</${name}>`).join('');
  const body =
    '<?xml version="1.0"?>\r\n' +
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<s:Body><u:${action} xmlns:u="${escapeXml(serviceType)}">${inner}</u:${action}></s:Body></s:Envelope>\r\n`;
  return { body, soapAction: `"${serviceType}#${action}"` };
}

/** The out-arguments of `action`'s response, or the UPnP error a fault carries (§3.2.2). */
export function parseSoapResponse(xml: string, action: string, outArguments: readonly string[]): SoapResult {
  const response = elementTexts(xml, `${action}Response`)[0];
  if (response !== undefined) {
    const values: Record<string, string> = {};
    for (const name of outArguments) {
      const text = elementTexts(response, name)[0];
      if (text !== undefined) values[name] = unescapeXml(text.trim());
    }
    return { ok: true, values };
  }
  const code = Number(elementTexts(xml, 'errorCode')[0]?.trim());
  const description = unescapeXml(elementTexts(xml, 'errorDescription')[0]?.trim() ?? '');
  return {
    ok: false,
    errorCode: Number.isInteger(code) ? code : 0,
    description: description || 'no UPnP error in the answer',
  };
}

/** The AddPortMapping / AddAnyPortMapping arguments in the order the service description lists them. */
export function addPortMappingArguments(mapping: {
  readonly externalPort: number;
  readonly internalPort: number;
  readonly internalClient: string;
  readonly description: string;
  readonly leaseSeconds: number;
}): readonly (readonly [string, string | number])[] {
  return [
    ['NewRemoteHost', ''],
    ['NewExternalPort', mapping.externalPort],
    ['NewProtocol', 'UDP'],
    ['NewInternalPort', mapping.internalPort],
    ['NewInternalClient', mapping.internalClient],
    ['NewEnabled', 1],
    ['NewPortMappingDescription', mapping.description],
    ['NewLeaseDuration', mapping.leaseSeconds],
  ];
}

/** The DeletePortMapping arguments: the mapping is named by its external port and protocol. */
export function deletePortMappingArguments(externalPort: number): readonly (readonly [string, string | number])[] {
  return [
    ['NewRemoteHost', ''],
    ['NewExternalPort', externalPort],
    ['NewProtocol', 'UDP'],
  ];
}

/** Inner texts of the elements whose local name is `name`, any namespace prefix, in document order. */
function elementTexts(xml: string, name: string): string[] {
  const pattern = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>`, 'g');
  return [...xml.matchAll(pattern)].map((match) => match[1] ?? '');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
