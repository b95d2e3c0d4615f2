// The upstream's images response is relayed byte for byte; the gateway only reads how many images
// it holds, which is what output is billed by. An upstream returning more than the `n` asked for is
// cut to `n`: the extra images would be served unbilled (docs/images.md, "Response and billing").
import { ApiError } from '../../common/api-error';

export interface ImagesResponse {
  /** What the client gets: the upstream's bytes, or its JSON with `data` cut to `requested`. */
  body: Buffer;
  /** Images the upstream returned. */
  returned: number;
}

export function imagesResponse(body: Buffer, requested: number): ImagesResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('is not JSON');
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw invalid('has no `data` array');
  if (data.length <= requested) return { body, returned: data.length };
  (parsed as { data: unknown[] }).data = data.slice(0, requested);
  return { body: Buffer.from(JSON.stringify(parsed)), returned: data.length };
}

const invalid = (problem: string) =>
  ApiError.upstream('invalid_upstream_response', `The image model's response ${problem}; it was not relayed. Retrying may succeed.`);
