import { isIP } from 'node:net';

/**
 * The network a client address stands for when counting failures per source. An IPv4 address is
 * one source; an IPv6 address is its /64, because one host (or one customer of a provider) is
 * handed a whole /64 and can send each attempt from a new address in it. IPv4 written as IPv6
 * (`::ffff:203.0.113.5`, as dual-stack sockets report it) is the IPv4 address.
 */
export function clientNetwork(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.split('%')[0];
  const mapped = /^::ffff:/i.test(plain) ? plain.slice(7) : plain;
  if (isIP(mapped) === 4) return mapped;
  // Not an address (a proxy's odd entry): itself in plain characters, cut to what a subject column has room for.
  if (isIP(plain) !== 6) return address.slice(0, 38).replace(/[^\w.:/-]/g, '_');
  return `${firstGroups(plain.toLowerCase(), 4).join(':')}::/64`;
}

/** The first `count` 16-bit groups of an IPv6 address, without leading zeros. */
function firstGroups(address: string, count: number): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  // A trailing IPv4 part (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills two groups.
  const right = tail ? tail.split(':').flatMap((part) => (part.includes('.') ? ['v4', 'v4'] : [part])) : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.slice(0, count).map((group) => (parseInt(group, 16) || 0).toString(16));
}
