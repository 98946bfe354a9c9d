/**
 * Values keyed by a UDP endpoint. A server looks up the sender of every datagram; keying by address then
 * port spares it building (and hashing) an "address:port" string each time.
 */
export class EndpointMap<V> {
  private readonly byAddress = new Map<string, Map<number, V>>();

  get(address: string, port: number): V | undefined {
    return this.byAddress.get(address)?.get(port);
  }

  set(address: string, port: number, value: V): void {
    let ports = this.byAddress.get(address);
    if (!ports) this.byAddress.set(address, (ports = new Map()));
    ports.set(port, value);
  }

  /** Removes one endpoint; an address left without ports is forgotten, so the map does not grow with churn. */
  delete(address: string, port: number): boolean {
    const ports = this.byAddress.get(address);
    if (!ports?.delete(port)) return false;
    if (ports.size === 0) this.byAddress.delete(address);
    return true;
  }

  /** Addresses with at least one endpoint. */
  get addressCount(): number {
    return this.byAddress.size;
  }
}
