// The transcription upstream call. Without speaker labels from the upstream itself the gateway asks
// for verbose_json with segment timings (plus word timings when the plan needs them) and renders the
// client's format itself. A model whose upstream diarizes (catalog `upstream.diarization`) is asked
// for `diarized_json` or sent `speaker_labels`, and its speakers come back with the transcript.
import type { CatalogModel } from '../../catalog/catalog.types';
import { MultipartForm } from '../../upstream/multipart-form';
import type { RoutedCaller } from '../../routing/router';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { SpeakerEvidence } from '../enrich-transcript';
import { readDiarizedJson, readWordSpeakers } from '../diarization/upstream-speakers';
import type { TranscriptionPlan } from '../transcription-plan';
import { upstreamInvalidTranscript } from '../transcription-errors';
import type { UpstreamTranscript } from '../transcript.types';
import { readUpstreamTranscript } from '../upstream-transcript';
import type { UploadedAudio } from './create-transcription.request.dto';

export type DiarizationMode = NonNullable<CatalogModel['upstream']['diarization']>;

export interface TranscriptionCall {
  model: CatalogModel;
  audio: UploadedAudio;
  plan: TranscriptionPlan;
  prompt?: string;
  temperature?: number;
  signal: AbortSignal;
  /** The client's request, whose upstream attempts are recorded (docs/routing.md). */
  ctx?: RoutedCaller;
}

export interface UpstreamAnswer {
  transcript: UpstreamTranscript;
  /** Present when the upstream itself diarized. */
  speakers?: SpeakerEvidence;
}

/** How speaker labels are produced for this request: `none` when it asks for none. */
export function diarizationModeOf(model: CatalogModel, plan: TranscriptionPlan): DiarizationMode | 'none' {
  return plan.diarize ? (model.upstream.diarization ?? 'service') : 'none';
}

function addCommonFields(form: MultipartForm, call: TranscriptionCall): void {
  if (call.plan.language !== undefined) form.field('language', call.plan.language);
  if (call.temperature !== undefined) form.field('temperature', String(call.temperature));
}

export function upstreamForm(call: TranscriptionCall): MultipartForm {
  const mode = diarizationModeOf(call.model, call.plan);
  const form = new MultipartForm();
  form.file('file', call.audio.filename, call.audio.mimetype, call.audio.bytes);
  form.field('model', call.model.upstream.model ?? call.model.id);
  if (mode === 'diarized_json') {
    // OpenAI's diarizing model takes no prompt and no timestamp granularities, and needs a chunking
    // strategy for audio over 30 s; num_speakers has no counterpart in its API.
    form.field('response_format', 'diarized_json');
    form.field('chunking_strategy', 'auto');
    addCommonFields(form, call);
    return form;
  }
  form.field('response_format', 'verbose_json');
  form.field('timestamp_granularities[]', 'segment');
  if (call.plan.needsWordTimings) form.field('timestamp_granularities[]', 'word');
  if (mode === 'speaker_labels') {
    form.field('speaker_labels', 'true');
    if (call.plan.numSpeakers !== undefined) form.field('num_speakers', String(call.plan.numSpeakers));
  }
  addCommonFields(form, call);
  if (call.prompt !== undefined) form.field('prompt', call.prompt);
  return form;
}

export async function transcribeUpstream(upstream: UpstreamClient, call: TranscriptionCall, audioSeconds: number): Promise<UpstreamAnswer> {
  const response = await upstream.send(call.model, { path: '/audio/transcriptions', form: upstreamForm(call), signal: call.signal, ctx: call.ctx });
  const body = await upstream.readJson(call.model, response);
  const transcript = readUpstreamTranscript(body);
  if ('problem' in transcript) throw upstreamInvalidTranscript(call.model.id, transcript.problem);
  const mode = diarizationModeOf(call.model, call.plan);
  if (mode === 'diarized_json') return readDiarizedJson(body as Record<string, unknown>, transcript, audioSeconds);
  if (mode === 'speaker_labels') return { transcript, speakers: { perWord: readWordSpeakers((body as { words?: unknown }).words) } };
  return { transcript };
}
