// `input_image.image_url` is an inline data: URL or a public HTTPS URL. The gateway never fetches
// web images (the model does), so "public" is judged from the URL alone: https, a host name that
// is not local, or an IP literal outside loopback, private, link-local and unique-local ranges.
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../../common/api-error';

export type ImageUrlKind = 'data' | 'https';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
// IPv4-mapped IPv6 literals (::ffff:127.0.0.1) are checked against the IPv4 rules by BlockList itself.
for (const [network, prefix] of [['::', 127], ['fc00::', 7], ['fe80::', 10]] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain)$/i;

export function classifyImageUrl(url: string, param: string): ImageUrlKind {
  if (/^data:/i.test(url)) return 'data';
  if (isPublicHttps(url)) return 'https';
  throw ApiError.badRequest('invalid_image_url', 'image_url must be a data: URL or a public https:// URL.', param);
}

function isPublicHttps(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family === 0) return host.includes('.') && !LOCAL_NAMES.test(host);
  return !NON_PUBLIC.check(host, family === 4 ? 'ipv4' : 'ipv6');
}
