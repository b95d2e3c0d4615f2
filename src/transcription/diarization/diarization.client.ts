// Calls the configured diarization service (catalog `services.diarization`; JSON in
// docs/simulator.md). Every way it can fail is a speaker-enrichment failure (502) for the client.
import { Blob } from 'node:buffer';
import { Agent, FormData, request } from 'undici';
import { ApiError } from '../../common/api-error';
import type { ServiceEndpoints } from '../../catalog/catalog.types';
import type { UploadedAudio } from '../create-transcription/create-transcription.request.dto';
import { diarizationNotConfigured, speakerEnrichmentFailed } from '../transcription-errors';
import type { SpeakerTurn } from '../transcript.types';
import { readBoundedJson } from '../../upstream/bounded-body';
import { DEFAULT_UPSTREAM_LIMITS } from '../../upstream/upstream-limits';
import { readSpeakerTurns } from './diarization-turns';

type DiarizationService = NonNullable<ServiceEndpoints['diarization']>;

export interface DiarizationRequest {
  audio: UploadedAudio;
  audioSeconds: number;
  numSpeakers?: number;
  signal: AbortSignal;
}

export class DiarizationClient {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000 });

  constructor(private readonly service: DiarizationService | null) {}

  get configured(): boolean {
    return this.service !== null;
  }

  async diarize(req: DiarizationRequest): Promise<SpeakerTurn[]> {
    if (!this.service) throw diarizationNotConfigured();
    return readSpeakerTurns(await this.post(this.service, req), req.audioSeconds);
  }

  private async post(service: DiarizationService, req: DiarizationRequest): Promise<unknown> {
    const form = new FormData();
    form.append('file', new Blob([req.audio.bytes], { type: req.audio.mimetype }), req.audio.filename);
    if (req.numSpeakers !== undefined) form.append('num_speakers', String(req.numSpeakers));
    const headers: Record<string, string> = service.api_key ? { authorization: `Bearer ${service.api_key}` } : {};
    try {
      const response = await request(`${service.base_url.replace(/\/$/, '')}/audio/diarizations`, {
        method: 'POST',
        body: form,
        headers,
        signal: req.signal,
        dispatcher: this.agent,
        headersTimeout: service.timeout_ms,
        bodyTimeout: service.timeout_ms,
      });
      if (response.statusCode >= 300) {
        await response.body.dump();
        throw speakerEnrichmentFailed(`the diarization service answered HTTP ${response.statusCode}`);
      }
      const answer = await readBoundedJson(response, 'diarization', DEFAULT_UPSTREAM_LIMITS.maxBodyBytes);
      if (answer === undefined) throw speakerEnrichmentFailed('the diarization service answered with a body that is not JSON');
      return answer;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (req.signal.aborted) throw new ApiError(499, 'client_closed_request', 'The client closed the request.', 'invalid_request_error');
      throw speakerEnrichmentFailed(`the diarization service failed (${(error as Error).message})`);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
