import { BlockList, isIP } from 'node:net';

/**
 * The reverse proxies (load balancers) whose `X-Forwarded-For` is believed (`http.trustedProxies`,
 * `TRUSTED_PROXIES`: addresses or CIDR blocks). A request's client is the peer, unless the peer is
 * one of them: then the last address of `X-Forwarded-For` that is not one of them (read from the
 * right, since a client may send any left part it likes).
 */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly #any: boolean;

  constructor(entries: readonly string[] = []) {
    for (const entry of entries) {
      const [address = '', bits] = entry.trim().split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (!isIP(address)) throw new Error(`Not an address or CIDR block in trusted proxies: ${entry}`);
      if (bits === undefined) this.#list.addAddress(address, type);
      else this.#list.addSubnet(address, Number(bits), type);
    }
    this.#any = entries.length > 0;
  }

  /** The client's address, given the peer's and the request's `X-Forwarded-For`. */
  client(peer: string | undefined, forwardedFor: string | null): string | undefined {
    if (!this.#any || !peer || !forwardedFor || !this.#trusts(peer)) return peer;
    const hops = forwardedFor
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => isIP(hop));
    for (let i = hops.length - 1; i >= 0; i--) if (!this.#trusts(hops[i]!)) return hops[i];
    return hops[0] ?? peer;
  }

  #trusts(address: string): boolean {
    return this.#list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
}
