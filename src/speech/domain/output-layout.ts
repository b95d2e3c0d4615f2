// Raw `pcm` carries no header: its layout is what the catalog declares in output_defaults.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import type { PcmLayout } from '../../media';

/** Sample format pcm16 and mono unless output_defaults says otherwise; the rate must be declared. */
export function pcmLayoutOf(model: CatalogModel): PcmLayout {
  const defaults = model.output_defaults ?? {};
  if (!defaults.sampling_rate) {
    throw new ApiError(500, 'model_misconfigured', `The model '${model.id}' declares no output_defaults.sampling_rate, so its pcm audio cannot be measured.`, 'server_error');
  }
  return { sampleRate: defaults.sampling_rate, sampleFormat: defaults.audio_format ?? 'pcm16', channels: defaults.channels ?? 1 };
}
