// Which request fields each image operation takes, and which of them reach the upstream. The price
// of an image is flat (docs/images.md), so a field that makes the model do more for the same price
// (`quality: "hd"`, `size: "4096x4096"`) or that the gateway does not know (`priority: -100`) must not
// be relayed: anything undocumented is 400 `unknown_parameter` with the field named, as the OpenAI API
// answers an unrecognized argument. `user` and `stream` (false) are accepted and not forwarded.
import { ApiError } from '../../common/api-error';
import type { FormRules } from '../../common/form-allow-list';
import type { ImageOperation } from '../domain/image-operations';

/** The fields forwarded, in the upstream form's order. */
const FORWARDED = ['model', 'prompt', 'n', 'response_format', 'size'] as const;

/** Accepted for compatibility with the SDKs and dropped: the caller's own end-user id, and "no stream". */
const DROPPED = ['user', 'stream'] as const;

/** The sizes a flat-priced image covers (one megapixel at most). */
export const IMAGE_SIZES: readonly string[] = ['256x256', '512x512', '1024x1024'];

const scalarFields = (withPrompt: boolean): Record<string, boolean> =>
  Object.fromEntries([...FORWARDED, ...DROPPED].filter((name) => withPrompt || name !== 'prompt').map((name) => [name, false]));

/** The multipart forms: input images repeat (`image` as the spec says, `image[]` as the SDK sends), one `mask`. */
export const IMAGE_FORMS: Record<Exclude<ImageOperation, 'generations'>, FormRules> = {
  edits: { fields: scalarFields(true), files: { image: true, 'image[]': true, mask: false } },
  variations: { fields: scalarFields(false), files: { image: true, 'image[]': true } },
};

const JSON_FIELDS: ReadonlySet<string> = new Set(Object.keys(scalarFields(true)));

/** A generation's JSON body: refuses an undocumented field, returns the fields forwarded. */
export function forwardedJsonFields(body: Record<string, unknown>): Record<string, unknown> {
  for (const name of Object.keys(body)) {
    if (!JSON_FIELDS.has(name)) throw ApiError.badRequest('unknown_parameter', `Unrecognized request argument \`${name}\`.`, name);
  }
  assertImageSize(body.size);
  if (body.user !== undefined && body.user !== null && typeof body.user !== 'string') {
    throw ApiError.badRequest('invalid_value', '`user` must be a string.', 'user');
  }
  const forwarded: Record<string, unknown> = {};
  for (const name of FORWARDED) if (body[name] !== undefined && body[name] !== null) forwarded[name] = body[name];
  return forwarded;
}

/** A form's text fields as forwarded (their values already checked), in a fixed order. */
export function forwardedFormFields(fields: Record<string, string>): [string, string][] {
  assertImageSize(fields.size);
  return FORWARDED.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]);
}

function assertImageSize(size: unknown): void {
  if (size === undefined || size === null || (typeof size === 'string' && IMAGE_SIZES.includes(size))) return;
  throw ApiError.badRequest('unsupported_size', `size must be one of ${IMAGE_SIZES.join(', ')}: larger images are not priced.`, 'size');
}
