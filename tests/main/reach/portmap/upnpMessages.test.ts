import { describe, expect, it } from 'vitest';
import {
  addPortMappingArguments,
  encodeSoapRequest,
  encodeSsdpSearch,
  parseIgdDescription,
  parseSoapResponse,
  parseSsdpResponse,
} from '../../../../main/reach/portmap/router/upnpMessages';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const bytes = (value: string) => new Uint8Array(Buffer.from(value, 'utf8'));

describe('UPnP IGD messages', () => {
  it('M-SEARCH (UDA 1.1 §1.3.2): request line, HOST, MAN, MX, ST, blank line', () => {
    expect(text(encodeSsdpSearch('urn:schemas-upnp-org:device:InternetGatewayDevice:1'))).toBe(
      'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\n' +
        'ST: urn:schemas-upnp-org:device:InternetGatewayDevice:1\r\n\r\n',
    );
  });

  it('reads the LOCATION of an IGD search response (headers in any case), and nothing else', () => {
    const answer =
      'HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=120\r\nst: urn:schemas-upnp-org:device:InternetGatewayDevice:1\r\n' +
      'Location: http://192.168.77.1:40000/rootDesc.xml\r\nSERVER: Debian/12 UPnP/1.1 MiniUPnPd/2.3.1\r\n\r\n';
    expect(parseSsdpResponse(bytes(answer))).toEqual({
      location: 'http://192.168.77.1:40000/rootDesc.xml',
      st: 'urn:schemas-upnp-org:device:InternetGatewayDevice:1',
    });
    expect(parseSsdpResponse(bytes(answer.replace('InternetGatewayDevice', 'MediaServer')))).toBeNull();
    expect(parseSsdpResponse(bytes(answer.replace('http://', 'file://')))).toBeNull();
    expect(parseSsdpResponse(bytes(answer.replace('200 OK', '404 Not Found')))).toBeNull();
    expect(parseSsdpResponse(bytes('NOTIFY * HTTP/1.1\r\n\r\n'))).toBeNull();
  });

  it('finds the preferred WAN connection service in a nested description and resolves its control URL', () => {
    const xml = `<?xml version="1.0"?><root xmlns="urn:schemas-upnp-org:device-1-0"><device>
      <deviceType>urn:schemas-upnp-org:device:InternetGatewayDevice:1</deviceType><deviceList><device>
      <deviceType>urn:schemas-upnp-org:device:WANDevice:1</deviceType><deviceList><device>
      <serviceList>
        <service><serviceType>urn:schemas-upnp-org:service:WANPPPConnection:1</serviceType><controlURL>/ppp</controlURL></service>
        <service><serviceType>urn:schemas-upnp-org:service:WANIPConnection:1</serviceType><controlURL>/ctl/IPConn</controlURL></service>
      </serviceList></device></deviceList></device></deviceList></device></root>`;
    expect(parseIgdDescription(xml, 'http://192.168.77.1:40000/rootDesc.xml')).toEqual({
      controlUrl: 'http://192.168.77.1:40000/ctl/IPConn',
      serviceType: 'urn:schemas-upnp-org:service:WANIPConnection:1',
    });
    const withBase = xml.replace('<device>', '<URLBase>http://192.168.77.1:5000/</URLBase><device>');
    expect(parseIgdDescription(withBase, 'http://192.168.77.1:40000/rootDesc.xml')?.controlUrl).toBe(
      'http://192.168.77.1:5000/ctl/IPConn',
    );
    expect(parseIgdDescription('<root><device></device></root>', 'http://192.168.77.1/')).toBeNull();
  });

  it('SOAP request (UDA 1.1 §3.2.1): envelope, action element in the service namespace, arguments in order', () => {
    const request = encodeSoapRequest(
      'urn:schemas-upnp-org:service:WANIPConnection:1',
      'AddPortMapping',
      addPortMappingArguments({
        externalPort: 40001,
        internalPort: 40001,
        internalClient: '192.168.77.2',
        description: 'LAN Party <room>',
        leaseSeconds: 3600,
      }),
    );
    expect(request.soapAction).toBe('"urn:schemas-upnp-org:service:WANIPConnection:1#AddPortMapping"');
    expect(request.body).toBe(
      '<?xml version="1.0"?>\r\n<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" ' +
        's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>' +
        '<u:AddPortMapping xmlns:u="urn:schemas-upnp-org:service:WANIPConnection:1">' +
        '<NewRemoteHost></NewRemoteHost><NewExternalPort>40001</NewExternalPort><NewProtocol>UDP</NewProtocol>' +
        '<NewInternalPort>40001</NewInternalPort><NewInternalClient>192.168.77.2</NewInternalClient>' +
        '<NewEnabled>1</NewEnabled><NewPortMappingDescription>LAN Party &lt;room&gt;</NewPortMappingDescription>' +
        '<NewLeaseDuration>3600</NewLeaseDuration></u:AddPortMapping></s:Body></s:Envelope>\r\n',
    );
  });

  it('reads out-arguments of a response and the UPnP error of a fault (§3.2.2)', () => {
    const ok =
      '<s:Envelope><s:Body><u:GetExternalIPAddressResponse xmlns:u="x">' +
      '<NewExternalIPAddress>203.0.113.1</NewExternalIPAddress></u:GetExternalIPAddressResponse></s:Body></s:Envelope>';
    expect(parseSoapResponse(ok, 'GetExternalIPAddress', ['NewExternalIPAddress'])).toEqual({
      ok: true,
      values: { NewExternalIPAddress: '203.0.113.1' },
    });
    const fault =
      '<s:Envelope><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>UPnPError</faultstring><detail>' +
      '<UPnPError xmlns="urn:schemas-upnp-org:control-1-0"><errorCode>718</errorCode>' +
      '<errorDescription>ConflictInMappingEntry</errorDescription></UPnPError></detail></s:Fault></s:Body></s:Envelope>';
    expect(parseSoapResponse(fault, 'AddPortMapping', [])).toEqual({
      ok: false,
      errorCode: 718,
      description: 'ConflictInMappingEntry',
    });
    expect(parseSoapResponse('garbage', 'AddPortMapping', [])).toMatchObject({ ok: false, errorCode: 0 });
  });
});
