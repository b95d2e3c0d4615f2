// The image relay (POST /v1/images/{path}): OpenAI's image requests, relayed upstream; the answer is
// the upstream's images response, verbatim. Each operation's request follows its rules in
// src/images/domain/image-operations.ts (body kind, prompt and image needed); any field not listed is
// refused (400 unknown_parameter, src/images/relay-image/image-fields.ts).
import { IMAGE_OPERATIONS, ImageOperation, MAX_IMAGES_PER_REQUEST, RESPONSE_FORMATS } from '../../images/domain/image-operations';
import { IMAGE_SIZES } from '../../images/relay-image/image-fields';
import { JsonSchema, arrayOf, integer, object, orNull, string } from '../json-schema';

const IMAGE_FILE: JsonSchema = { type: 'string', contentMediaType: 'application/octet-stream' };

const REQUEST_NAMES: Record<ImageOperation, string> = {
  generations: 'ImageGenerationRequest',
  edits: 'ImageEditRequest',
  variations: 'ImageVariationRequest',
};

export const imageRequestName = (operation: ImageOperation): string => REQUEST_NAMES[operation];

function imageRequest(operation: ImageOperation): JsonSchema {
  const rules = IMAGE_OPERATIONS[operation];
  const multipart = rules.body === 'multipart';
  // A form cannot carry null; JSON may leave an optional field null.
  const optional = (schema: JsonSchema) => (multipart ? schema : orNull(schema));
  const responseFormat: JsonSchema = { type: 'string', enum: [...RESPONSE_FORMATS], default: 'url', description: 'Hosted URLs or base64 image data.' };
  const properties: Record<string, JsonSchema> = {
    model: { ...string('Image model id; a request without one gives 400.'), pattern: '\\S' },
    ...(rules.needsPrompt ? { prompt: { ...string('Describes the desired image.'), minLength: 1 } } : {}),
    ...(rules.needsImage
      ? {
          image: { ...arrayOf(IMAGE_FILE), minItems: 1, description: 'Source images, one file part each (the field repeats; `image[]` is read too).' },
          'image[]': { ...arrayOf(IMAGE_FILE), description: 'Source images as the SDKs name an array of them.' },
        }
      : {}),
    n: optional({ type: 'integer', minimum: 1, maximum: MAX_IMAGES_PER_REQUEST, default: 1, description: 'Images to generate; at most this many are billed and returned.' }),
    response_format: optional(responseFormat),
    size: optional({ type: 'string', enum: [...IMAGE_SIZES], description: 'Larger images are not priced: any other size gives 400.' }),
    user: optional(string('Accepted and not forwarded.')),
    ...(operation === 'edits' ? { mask: { ...IMAGE_FILE, description: 'One mask image, forwarded unchecked.' } } : {}),
    stream: { ...optional({ type: 'boolean', const: false }), description: 'The relay does not stream; not forwarded.' },
  };
  return object(properties, {
    optional: ['image[]', 'n', 'response_format', 'size', 'user', 'mask', 'stream'].filter((name) => name in properties),
    additional: false,
    description: `path \`${operation}\`, as ${multipart ? 'multipart/form-data' : 'JSON'}.`,
  });
}

export const IMAGE_SCHEMAS: Record<string, JsonSchema> = {
  ...Object.fromEntries((Object.keys(IMAGE_OPERATIONS) as ImageOperation[]).map((operation) => [REQUEST_NAMES[operation], imageRequest(operation)])),
  ImagesResponse: object(
    {
      created: integer(),
      data: arrayOf(
        object(
          { url: string('Hosted image URL (response_format url).'), b64_json: string('Base64 image (response_format b64_json).'), revised_prompt: string() },
          { optional: 'all', additional: true },
        ),
      ),
    },
    { optional: ['created'], additional: true, description: 'The upstream image model\'s response, relayed as is.' },
  ),
};
