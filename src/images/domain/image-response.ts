// The upstream's images response is relayed byte for byte; the gateway only reads how many images
// it holds, which is what output is billed by.
import { ApiError } from '../../common/api-error';

export function generatedImageCount(body: Buffer): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('is not JSON');
  }
  const data = (parsed as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw invalid('has no `data` array');
  return data.length;
}

const invalid = (problem: string) =>
  ApiError.upstream('invalid_upstream_response', `The image model's response ${problem}; it was not relayed. Retrying may succeed.`);
