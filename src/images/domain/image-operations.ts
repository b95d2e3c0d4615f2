// The image operations the relay serves and what each needs, in the shapes the official OpenAI SDK
// sends: `generations` as JSON, `edits` and `variations` as multipart/form-data.
import { ApiError } from '../../common/api-error';

export type ImageOperation = 'generations' | 'edits' | 'variations';

export interface OperationRules {
  body: 'json' | 'multipart';
  needsPrompt: boolean;
  needsImage: boolean;
}

export const IMAGE_OPERATIONS: Record<ImageOperation, OperationRules> = {
  generations: { body: 'json', needsPrompt: true, needsImage: false },
  edits: { body: 'multipart', needsPrompt: true, needsImage: true },
  variations: { body: 'multipart', needsPrompt: false, needsImage: true },
};

/** The SDK names one image `image` and several `image[]`; both are input images. */
export const INPUT_IMAGE_FIELDS: ReadonlySet<string> = new Set(['image', 'image[]']);

export const RESPONSE_FORMATS = ['url', 'b64_json'];

/** The `stream` values that ask for no stream: absent, null, false (a form sends the text `false`). */
const NOT_STREAMED: ReadonlySet<unknown> = new Set([undefined, null, false, 'false']);

export function imageOperation(path: string): ImageOperation {
  if (Object.hasOwn(IMAGE_OPERATIONS, path)) return path as ImageOperation;
  throw ApiError.notFound('not_found', `No such image operation '${path}'; use generations, edits or variations.`);
}

/** The scalar fields the relay checks; all others pass through untouched. */
export interface ImageRequestFields {
  model?: unknown;
  prompt?: unknown;
  response_format?: unknown;
  stream?: unknown;
  n?: unknown;
}

/** The most images one request may ask for (the OpenAI Images API's own limit). */
export const MAX_IMAGES_PER_REQUEST = 10;

/**
 * The `n` asked for: absent or null is 1; otherwise a whole number 1..10, as a JSON number or a form's
 * text. It bounds what is billed (and held), so anything else is refused rather than passed on.
 */
export function requestedImageCount(fields: ImageRequestFields): number {
  const { n } = fields;
  if (n === undefined || n === null) return 1;
  const count = typeof n === 'string' && /^[0-9]{1,2}$/.test(n) ? Number(n) : n;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_IMAGES_PER_REQUEST) {
    throw ApiError.badRequest('invalid_image_count', `n must be a whole number from 1 to ${MAX_IMAGES_PER_REQUEST}.`, 'n');
  }
  return count;
}

/** Checks what the operation needs and returns the requested model id. */
export function assertImageRequest(operation: ImageOperation, fields: ImageRequestFields, imageCount: number): string {
  const rules = IMAGE_OPERATIONS[operation];
  if (typeof fields.model !== 'string' || fields.model.trim() === '') {
    throw ApiError.badRequest('missing_model', 'The request must name an image `model`.', 'model');
  }
  if (rules.needsPrompt && (typeof fields.prompt !== 'string' || fields.prompt === '')) {
    throw ApiError.badRequest('missing_required_parameter', `Image ${operation} need a \`prompt\`.`, 'prompt');
  }
  if (rules.needsImage && imageCount === 0) {
    throw ApiError.badRequest('missing_required_parameter', `Image ${operation} need at least one \`image\` file.`, 'image');
  }
  if (fields.response_format !== undefined && fields.response_format !== null && !RESPONSE_FORMATS.includes(String(fields.response_format))) {
    throw ApiError.badRequest('unsupported_response_format', `response_format must be one of ${RESPONSE_FORMATS.join(', ')}.`, 'response_format');
  }
  // Only "no stream" passes: true would ask the upstream for a stream the relay cannot bill, and any
  // other value is nothing an image model reads (schemathesis sent -58800, which went upstream).
  if (!NOT_STREAMED.has(fields.stream)) {
    throw ApiError.badRequest('streaming_unsupported', 'The image relay does not stream; omit stream or set it to false.', 'stream');
  }
  return fields.model;
}
