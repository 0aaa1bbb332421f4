import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a metadata document may be fetched from (SSRF protection): public unicast ones
 * only, as ipaddr.js classifies them — never loopback, private (RFC 1918, unique local), link
 * local (cloud metadata services live there), carrier-grade NAT, multicast, broadcast, reserved
 * or documentation ranges, nor IPv6 forms that embed an IPv4 address (6to4, Teredo, NAT64), unless
 * the operator allows a range by name. IPv4-mapped IPv6 addresses are judged as the IPv4 address.
 */
export class AddressPolicy {
  readonly #allowed: ReadonlySet<string>;

  constructor(allowRanges: readonly string[] = []) {
    this.#allowed = new Set(allowRanges);
  }

  /** The range name of a refused address, or undefined when the address may be used. */
  refusal(address: string): string | undefined {
    if (!isIP(address)) return 'invalid';
    const range = ipaddr.process(address).range();
    return range === 'unicast' || this.#allowed.has(range) ? undefined : range;
  }
}
