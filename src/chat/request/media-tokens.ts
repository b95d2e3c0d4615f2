// Placeholder tokens of the request's media, for the prompt-size estimate: exactly what metering
// will count at the boundary.
import type { CatalogModel } from '../../catalog/catalog.types';
import { meterAudio, meterImages, meterVideos, type MediaRule } from '../../billing/metering/media-metering';
import type { InputMediaMeasures } from '../chat.types';

const BOUNDARY: MediaRule = { metering: 'boundary', upstreamTokens: undefined };

export function mediaPlaceholderTokens(media: InputMediaMeasures, model: CatalogModel): number {
  const { audio_placeholder: audio, visual_placeholder: visual } = model.architecture;
  return (
    meterAudio(media.audio, audio, 1, BOUNDARY).tokens +
    meterImages(media.images, visual, BOUNDARY).tokens +
    meterVideos(media.videos, visual, BOUNDARY).tokens
  );
}
