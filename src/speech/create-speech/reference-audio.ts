// Reference audio for cloning arrives as a data: URL in any container the media library reads;
// the model gets it in a form its media profile accepts, at most 8 MiB after transcoding.
import type { CatalogModel } from '../../catalog/catalog.types';
import {
  assertWithinMediaLimit,
  decideMedia,
  identifyAudio,
  mediaRejectionError,
  type MediaWork,
  parseInlineMediaUrl,
  transcodeAudio,
  withMediaParam,
  type AudioProbe,
} from '../../media';

const PARAM = 'ref_audio';

export interface PreparedReference {
  /** The bytes the model receives. */
  bytes: Buffer;
  dataUrl: string;
  /** Seconds of reference audio the model is conditioned on. */
  durationSeconds: string;
}

export async function prepareReference(refAudio: string, model: CatalogModel, work?: MediaWork): Promise<PreparedReference> {
  const { bytes } = parseInlineMediaUrl(refAudio, PARAM);
  const probe = await withMediaParam(PARAM, identifyAudio(bytes, { work }));
  const decision = decideMedia('audio', probe, model.media_profiles?.audio);
  if (decision.action === 'reject') throw mediaRejectionError(decision, PARAM);
  if (decision.action === 'accept') return prepared(bytes, probe);
  const converted = await transcodeAudio(bytes, decision.target, { work });
  return prepared(converted, await identifyAudio(converted, { work }));
}

/** The duration is the clip the model receives, measured after any transcoding. */
function prepared(bytes: Buffer, probe: AudioProbe): PreparedReference {
  assertWithinMediaLimit(bytes, PARAM);
  return { bytes, dataUrl: `data:audio/${probe.container};base64,${bytes.toString('base64')}`, durationSeconds: probe.durationSeconds };
}
