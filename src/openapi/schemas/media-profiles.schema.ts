// The spec's MediaProfiles (src/catalog/catalog.types.ts): per media kind, null (rejected) or what the
// model accepts as sent, what everything else is converted to, and where it is metered.
import { JsonSchema, boolean, integer, object, orNull, ref, string } from '../json-schema';

/** An integer >= 1, or null for "no constraint". */
const positiveOrNull = (): JsonSchema => orNull(integer(1));

/** An inclusive [low, high] range; null means unconstrained. */
const range = (unit: string): JsonSchema =>
  orNull({
    type: 'array',
    prefixItems: [integer(0), integer(0)],
    minItems: 2,
    maxItems: 2,
    description: `Inclusive [low, high] in ${unit}.`,
  });

/** A set of allowed values; empty means unconstrained. */
const set = (item: JsonSchema): JsonSchema => ({ type: 'array', items: item, uniqueItems: true, default: [] });

function support(kind: string): JsonSchema {
  return orNull(
    object(
      {
        accepts: { ...orNull(ref(`${kind}AcceptRegion`)), description: 'What the model takes as sent; null accepts nothing.' },
        converts_to: { ...orNull(ref(`${kind}TargetProfile`)), description: 'What other input is converted to; null rejects it.' },
        metering: { ...ref('Metering'), default: 'boundary' },
      },
      { optional: ['metering'] },
    ),
  );
}

export const MEDIA_PROFILE_SCHEMAS: Record<string, JsonSchema> = {
  MediaProfiles: object(
    { audio: support('Audio'), image: support('Image'), video: support('Video') },
    { optional: 'all', description: 'Per media kind: null rejects input of that kind.' },
  ),
  AudioAcceptRegion: object(
    { containers: set(ref('AudioContainer')), sample_rate: range('Hz'), channels: set(integer(1)) },
    { optional: 'all' },
  ),
  AudioTargetProfile: object(
    { codec: string(), container: string(), sample_rate: positiveOrNull(), channels: positiveOrNull() },
    { optional: ['sample_rate', 'channels'] },
  ),
  ImageAcceptRegion: object(
    { formats: set(ref('ImageFormat')), max_width: positiveOrNull(), max_height: positiveOrNull() },
    { optional: 'all' },
  ),
  ImageTargetProfile: object({ format: string(), max_width: positiveOrNull(), max_height: positiveOrNull() }, { optional: ['max_width', 'max_height'] }),
  VideoAcceptRegion: object(
    { containers: set(ref('VideoContainer')), max_width: positiveOrNull(), max_height: positiveOrNull(), frame_rate: range('frames per second') },
    { optional: 'all' },
  ),
  VideoTargetProfile: object(
    {
      video_codec: string(),
      container: string(),
      max_width: positiveOrNull(),
      max_height: positiveOrNull(),
      keep_audio: { ...boolean(), default: true },
    },
    { optional: ['max_width', 'max_height', 'keep_audio'] },
  ),
};
