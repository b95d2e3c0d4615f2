// The transcription upstream call: the gateway always asks for verbose_json with segment timings,
// plus word timings when the plan needs them, and renders the client's format itself.
import { Blob } from 'node:buffer';
import { FormData } from 'undici';
import type { CatalogModel } from '../../catalog/catalog.types';
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

export function upstreamForm(call: TranscriptionCall): FormData {
  const form = new FormData();
  form.append('file', new Blob([call.audio.bytes], { type: call.audio.mimetype }), call.audio.filename);
  form.append('model', call.model.upstream.model ?? call.model.id);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  if (call.plan.needsWordTimings) form.append('timestamp_granularities[]', 'word');
  if (call.plan.language !== undefined) form.append('language', call.plan.language);
  if (call.prompt !== undefined) form.append('prompt', call.prompt);
  if (call.temperature !== undefined) form.append('temperature', String(call.temperature));
  return form;
}

export async function transcribeUpstream(upstream: UpstreamClient, call: TranscriptionCall): Promise<UpstreamTranscript> {
  const response = await upstream.send(call.model, { path: '/audio/transcriptions', body: upstreamForm(call), signal: call.signal });
  const body = await upstream.readJson(call.model, response);
  const transcript = readUpstreamTranscript(body);
  if ('problem' in transcript) throw upstreamInvalidTranscript(call.model.id, transcript.problem);
  return transcript;
}
