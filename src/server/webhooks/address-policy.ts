import { BlockList, isIP } from 'node:net';

/** Why an address may not receive webhooks, or 'public' when it may. */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'cgnat'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

const RANGES: [AddressKind, string, number, 'ipv4' | 'ipv6'][] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['cgnat', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['private', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
];

/** One list per range, the most specific first (255.255.255.255 is broadcast before it is 240/4). */
const RULES = RANGES.map(([kind, network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, list, prefix };
}).sort((a, b) => b.prefix - a.prefix);

/** The 8 groups of an IPv6 address, or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, -dotted[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) all reach the IPv4 host.
 */
function embeddedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const compatible = zeros(0, 6) && (g[6]! !== 0 || g[7]! > 1);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !compatible && !nat64) return undefined;
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
}

/** What kind of address `ip` is (an IPv4 or IPv6 literal, without brackets). */
export function classifyAddress(ip: string): AddressKind {
  const family = isIP(ip);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const v4 = embeddedIPv4(ip);
    if (v4) return classifyAddress(v4);
  }
  for (const { kind, list } of RULES) if (list.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  return 'public';
}

/** Whether a webhook may be delivered to `ip`; loopback only when local webhooks are allowed. */
export function deliverable(
  ip: string,
  allowLoopback: boolean,
): { ok: true } | { ok: false; kind: AddressKind } {
  const kind = classifyAddress(ip);
  if (kind === 'public' || (kind === 'loopback' && allowLoopback)) return { ok: true };
  return { ok: false, kind };
}

/** A URL's host as an address literal (brackets removed), or undefined for a name. */
export function literalHost(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** `localhost` and every name under it resolve to loopback, whatever DNS says (RFC 6761). */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
