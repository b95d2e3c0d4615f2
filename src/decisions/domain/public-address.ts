// Whether an IP literal or a host name can only reach the public internet, judged from the text
// alone (the gateway never resolves or fetches it). IPv6 is an allow-list: global unicast
// (2000::/3) outside the special blocks, plus the forms that embed an IPv4 address (mapped,
// compatible, NAT64, 6to4), which are judged by that address.
import { BlockList, isIPv4, isIPv6 } from 'node:net';

const NON_PUBLIC_V4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
}

/** Global unicast blocks that still do not name a public host: Teredo, benchmarking, ORCHID, documentation. */
const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [['2001::', 32], ['2001:2::', 48], ['2001:10::', 28], ['2001:20::', 28], ['2001:db8::', 32], ['3fff::', 20]] as const) {
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

export function isPublicIPv4(address: string): boolean {
  return isIPv4(address) && !NON_PUBLIC_V4.check(address, 'ipv4');
}

export function isPublicIPv6(address: string): boolean {
  if (!isIPv6(address)) return false;
  const words = ipv6Words(address);
  const embedded = embeddedIPv4(words);
  if (embedded !== null) return isPublicIPv4(embedded);
  if ((words[0] & 0xe000) !== 0x2000) return false; // outside 2000::/3: loopback, ULA, link/site-local, multicast, ...
  return !NON_PUBLIC_V6.check(address, 'ipv6');
}

/** The IPv4 address an IPv6 literal stands for, when it is one of the forms that carry one. */
function embeddedIPv4(words: number[]): string | null {
  const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  const zeros = (from: number, to: number) => words.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6], words[7]); // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 4) && words[4] === 0xffff && words[5] === 0) return v4(words[6], words[7]); // ::ffff:0:a.b.c.d (SIIT)
  if (zeros(0, 6)) return v4(words[6], words[7]); // ::a.b.c.d (compatible; also ::, ::1 -> 0.0.0.x)
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6], words[7]); // 64:ff9b::/96 (NAT64)
  if (words[0] === 0x2002) return v4(words[1], words[2]); // 2002::/16 (6to4)
  return null;
}

function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  const first = parse(head);
  if (tail === null) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** Names that resolve inside the network the model runs in (cluster, cloud metadata, LAN, loopback). */
const LOCAL_SUFFIXES = /(^|\.)(localhost|local|internal|localdomain|svc|lan|home\.arpa|arpa|test|invalid|intranet|corp)$/i;
const LOCAL_NAMES = new Set(['metadata', 'metadata.google.internal', 'instance-data', 'kubernetes']);
/** Wildcard DNS services: every name under them resolves to the address it spells. */
const WILDCARD_DNS = /(^|\.)(nip\.io|sslip\.io|xip\.io|xip\.name|nip\.direct|localtest\.me|lvh\.me|vcap\.me|traefik\.me|lacolhost\.com|localho\.st)$/i;

/** A host name (already WHATWG-normalized: lower case, punycode) that may name a public host. */
export function isPublicHostName(name: string): boolean {
  const host = name.replace(/\.+$/, '');
  if (!host.includes('.') || LOCAL_NAMES.has(host) || LOCAL_SUFFIXES.test(host) || WILDCARD_DNS.test(host)) return false;
  return !embedsNonPublicIPv4(host);
}

/** A dotted or dashed IPv4 address inside a name (`127.0.0.1.example.com`, `app-10-0-0-1.example.com`). */
function embedsNonPublicIPv4(host: string): boolean {
  const pieces = host.split(/[.-]/);
  for (let start = 0; start + 4 <= pieces.length; start++) {
    const four = pieces.slice(start, start + 4);
    if (!four.every((piece) => /^\d{1,3}$/.test(piece))) continue;
    const address = four.map(Number).join('.');
    if (isIPv4(address) && !isPublicIPv4(address)) return true;
  }
  return false;
}
