// `input_image.image_url` is an inline data: URL or a public HTTPS URL. The gateway never fetches
// web images (the model does), so "public" is judged from the URL alone (public-address.ts), and
// the model is sent the URL as the gateway parsed it (WHATWG-serialized), never the client's
// string: a parser of its own must not read another host out of it. Text another parser could read
// differently (backslashes, user info, whitespace or control characters) is refused outright. What
// this cannot see (a public name that resolves to a private address) is the model's egress to
// enforce (docs/decisions.md, docs/security.md).
import { ApiError } from '../../common/api-error';
import { isPublicHostName, isPublicIPv4, isPublicIPv6 } from './public-address';

export type ImageUrlKind = 'data' | 'https';

export interface ClassifiedImageUrl {
  kind: ImageUrlKind;
  /** What the model is sent: a data: URL as given, a web URL in its normalized form. */
  url: string;
}

/** Backslash, whitespace (any Unicode space) and C0/DEL/C1 controls. */
const AMBIGUOUS_CHARACTERS = /[\\\s\u0000-\u001f\u007f-\u009f]/;

export function classifyImageUrl(url: string, param: string): ClassifiedImageUrl {
  if (/^data:/i.test(url)) return { kind: 'data', url };
  const normalized = publicHttpsUrl(url);
  if (normalized !== null) return { kind: 'https', url: normalized };
  throw ApiError.badRequest('invalid_image_url', 'image_url must be a data: URL or a public https:// URL (no user info, backslashes, spaces or control characters).', param);
}

/** The normalized URL when `text` is an unambiguous https URL of a public host, else null. */
export function publicHttpsUrl(text: string): string | null {
  if (AMBIGUOUS_CHARACTERS.test(text) || authorityOf(text).includes('@')) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  return isPublicHost(url.hostname) ? url.href : null;
}

function isPublicHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return isPublicIPv6(hostname.slice(1, -1));
  // WHATWG has already turned every IPv4 spelling (0x7f.1, 2130706433, full-width digits) into dotted decimal.
  if (/^\d+\.\d+\.\d+\.\d+$/.test(hostname)) return isPublicIPv4(hostname);
  return isPublicHostName(hostname);
}

/** The raw text between `//` and the path, query or fragment, as a naive parser would take it. */
function authorityOf(text: string): string {
  const start = text.indexOf('//');
  if (start < 0) return '';
  const rest = text.slice(start + 2);
  const end = rest.search(/[/?#]/);
  return end < 0 ? rest : rest.slice(0, end);
}
