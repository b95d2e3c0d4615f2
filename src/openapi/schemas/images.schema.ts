// The image relay (POST /v1/images/{path}): OpenAI's image requests, relayed upstream; the answer is
// the upstream's images response, verbatim. Fields the relay does not read pass through.
import { JsonSchema, arrayOf, integer, object, oneOfValues, string } from '../json-schema';

const responseFormat = (): JsonSchema => ({ ...oneOfValues(['url', 'b64_json']), default: 'url', description: 'Hosted URLs or base64 image data.' });
const model = () => string('Image model id; a request without one gives 400.');
const imageFile: JsonSchema = { type: 'string', contentMediaType: 'application/octet-stream' };

export const IMAGE_SCHEMAS: Record<string, JsonSchema> = {
  ImageGenerationRequest: object(
    { model: model(), prompt: string('Describes the desired image.'), response_format: responseFormat() },
    { optional: ['response_format'], additional: true, description: 'path `generations`.' },
  ),
  ImageEditRequest: object(
    {
      model: model(),
      prompt: string('Describes the desired edit; required for edits.'),
      image: { oneOf: [imageFile, arrayOf(imageFile)], description: 'Source image; repeat the field (or use `image[]`) to send several.' },
      response_format: responseFormat(),
    },
    { optional: ['prompt', 'response_format'], additional: true, description: 'paths `edits` and `variations`.' },
  ),
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
