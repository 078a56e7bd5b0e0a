import { BlockList, isIP } from 'node:net';

/**
 * An IP allow list of CIDR blocks (`203.0.113.0/24`, `2001:db8::/32`) or single addresses, checked
 * with Node's own BlockList. IPv4 written as IPv6 (`::ffff:203.0.113.5`, as dual-stack sockets
 * report it) is compared as the IPv4 address it is.
 */
export class AddressList {
  private readonly list = new BlockList();

  private constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  /** Reads one entry per line or comma; throws a message naming the first entry that is not a block. */
  static parse(text: string): AddressList {
    const entries = text.split(/[\s,]+/).filter(Boolean);
    for (const entry of entries) {
      const problem = entryProblem(entry);
      if (problem) throw new Error(problem);
    }
    return new AddressList(entries);
  }

  allows(address: string | undefined): boolean {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    if (!family) return false;
    return this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

function entryProblem(entry: string): string | null {
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return `"${entry}" is not an IP address or CIDR block.`;
  if (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128))) {
    return `"${entry}" has a prefix length out of range.`;
  }
  return null;
}
