// The transcription endpoint's own error codes (docs/errors.md, "POST /v1/audio/transcriptions").
import { ApiError } from '../common/api-error';

export const timingEnrichmentFailed = (detail: string) =>
  ApiError.upstream('timing_enrichment_failed', `Word and segment timings could not be produced: ${detail}.`);

export const speakerEnrichmentFailed = (detail: string) =>
  ApiError.upstream('speaker_enrichment_failed', `Speaker labels could not be produced: ${detail}.`);

export const upstreamInvalidTranscript = (modelId: string, detail: string) =>
  ApiError.upstream('upstream_invalid_response', `The model '${modelId}' answered with an unusable transcript: ${detail}.`);

export const speakerLabelsRequireVerboseJson = () =>
  ApiError.badRequest('speaker_labels_require_verbose_json', 'speaker_labels requires response_format verbose_json.', 'speaker_labels');

export const speakerLabelsRequireWordTimestamps = () =>
  ApiError.badRequest(
    'speaker_labels_require_word_timestamps',
    'speaker_labels requires `word` in timestamp_granularities[] when a granularity list is sent.',
    'speaker_labels',
  );

/** A server-side gap, not the client's fault: speaker labels were asked for but no diarizer is configured. */
export const diarizationNotConfigured = () =>
  new ApiError(500, 'diarization_not_configured', 'Speaker labels are not available: no diarization service is configured.', 'server_error');
