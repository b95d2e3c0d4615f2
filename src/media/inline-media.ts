// Media arrives inline in JSON: bare base64 (input_audio.data) or `data:<mime>;base64,<payload>`
// URLs. Decoding is strict so a mangled upload fails here with a precise message instead of
// reaching ffmpeg as garbage.
import { MediaError } from './media-error';

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const OUTSIDE_ALPHABET = /[^A-Za-z0-9+/=]/;

export interface InlineMedia {
  /** The MIME type the client declared; informative only, the bytes decide what the media is. */
  mimeType?: string;
  bytes: Buffer;
}

/** Decodes canonical, padded base64 (RFC 4648 section 4) or throws `invalid_base64`. */
export function decodeStrictBase64(text: string, param: string | null = null): Buffer {
  const problem = base64Problem(text);
  if (problem) throw new MediaError('invalid_base64', `Invalid base64: ${problem}`, param);
  return Buffer.from(text, 'base64');
}

function base64Problem(text: string): string | null {
  if (text.length === 0) return 'the payload is empty';
  const outside = OUTSIDE_ALPHABET.exec(text);
  if (outside) return `character ${JSON.stringify(outside[0])} at position ${outside.index} is not in the base64 alphabet`;
  const firstPad = text.indexOf('=');
  const padLength = firstPad === -1 ? 0 : text.length - firstPad;
  if (firstPad !== -1 && (padLength > 2 || /[^=]/.test(text.slice(firstPad)))) {
    return `'=' padding at position ${firstPad} may only end the payload, at most twice`;
  }
  if (text.length % 4 !== 0) return `length ${text.length} is not a multiple of 4 (missing or extra '=' padding)`;
  return padLength > 0 && hasStrayBits(text, padLength) ? 'the bits before the padding are not zero (non-canonical encoding)' : null;
}

/** The last data character of a padded group may carry bits that fall off the end; canonical base64 zeroes them. */
function hasStrayBits(text: string, padLength: number): boolean {
  const lastData = BASE64_ALPHABET.indexOf(text[text.length - padLength - 1]);
  const unusedBitMask = padLength === 1 ? 0b11 : 0b1111;
  return (lastData & unusedBitMask) !== 0;
}

const DATA_URL = /^data:([^,]*?),(.*)$/is;

/** Parses `data:<mime>[;params];base64,<payload>`. */
export function parseDataUrl(url: string, param: string | null = null): InlineMedia {
  const match = DATA_URL.exec(url);
  if (!match) throw new MediaError('invalid_data_url', 'Expected a data: URL of the form data:<mime>;base64,<payload>', param);
  const meta = match[1].split(';');
  if (meta.length < 2 || meta[meta.length - 1].toLowerCase() !== 'base64') {
    throw new MediaError('invalid_data_url', 'The data: URL must be base64-encoded (data:<mime>;base64,<payload>)', param);
  }
  const mimeType = meta[0].trim().toLowerCase();
  return { mimeType: mimeType || undefined, bytes: decodeStrictBase64(match[2], param) };
}

/** Media URLs in content parts: only inline data: URLs; web URLs are refused without fetching. */
export function parseInlineMediaUrl(url: string, param: string | null = null): InlineMedia {
  if (/^https?:/i.test(url.trim())) {
    throw new MediaError('media_url_not_inline', 'Only inline data: URLs are accepted for media', param);
  }
  return parseDataUrl(url, param);
}

/** `input_audio.data` for captioning and decisions: the bare base64 payload, not a data: URL. */
export function decodeBareBase64(text: string, param: string | null = null): Buffer {
  if (/^data:/i.test(text.trimStart())) {
    throw new MediaError('invalid_base64', 'Expected bare base64 audio data, not a data: URL', param);
  }
  return decodeStrictBase64(text, param);
}

