// The transcription upstream call: the gateway always asks for verbose_json with segment timings,
// plus word timings when the plan needs them, and renders the client's format itself.
import type { CatalogModel } from '../../catalog/catalog.types';
import { MultipartForm } from '../../upstream/multipart-form';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { TranscriptionPlan } from '../transcription-plan';
import { upstreamInvalidTranscript } from '../transcription-errors';
import type { UpstreamTranscript } from '../transcript.types';
import { readUpstreamTranscript } from '../upstream-transcript';
import type { UploadedAudio } from './create-transcription.request.dto';

export interface TranscriptionCall {
  model: CatalogModel;
  audio: UploadedAudio;
  plan: TranscriptionPlan;
  prompt?: string;
  temperature?: number;
  signal: AbortSignal;
}

export function upstreamForm(call: TranscriptionCall): MultipartForm {
  const form = new MultipartForm();
  form.file('file', call.audio.filename, call.audio.mimetype, call.audio.bytes);
  form.field('model', call.model.upstream.model ?? call.model.id);
  form.field('response_format', 'verbose_json');
  form.field('timestamp_granularities[]', 'segment');
  if (call.plan.needsWordTimings) form.field('timestamp_granularities[]', 'word');
  if (call.plan.language !== undefined) form.field('language', call.plan.language);
  if (call.prompt !== undefined) form.field('prompt', call.prompt);
  if (call.temperature !== undefined) form.field('temperature', String(call.temperature));
  return form;
}

export async function transcribeUpstream(upstream: UpstreamClient, call: TranscriptionCall): Promise<UpstreamTranscript> {
  const response = await upstream.send(call.model, { path: '/audio/transcriptions', ...upstreamForm(call).toRequest(), signal: call.signal });
  const body = await upstream.readJson(call.model, response);
  const transcript = readUpstreamTranscript(body);
  if ('problem' in transcript) throw upstreamInvalidTranscript(call.model.id, transcript.problem);
  return transcript;
}
