// Transcribes one upload: check the audio at the boundary, run the transcription (and diarization)
// upstreams together, enrich, bill what was measured, then shape the requested format.
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../../billing/billing.service';
import { BudgetHolds, hasLimits } from '../../budgets/budget-holds';
import { maxTranscriptionCostMicros } from '../max-transcription-cost';
import type { RequestContext } from '../../common/request-context';
import { type TranscriptionUsage, transcriptionClientUsage, transcriptionUsageKind } from '../transcription-usage';
import { type UsageFormat } from '../../billing/client-usage';
import type { MeasuredAudio, Measurement } from '../../billing/metering/measurement';
import type { AudioTokens } from '../../billing/metering/meter';
import type { Usage } from '../../billing/usage';
import { CatalogService } from '../../catalog/catalog.service';
import type { CatalogModel } from '../../catalog/catalog.types';
import type { AudioProbe } from '../../media';
import { ModelGate } from '../../models/model-gate/model-gate';
import { UpstreamClient } from '../../upstream/upstream.client';
import { DiarizationClient } from '../diarization/diarization.client';
import { enrichTranscript, SpeakerEvidence } from '../enrich-transcript';
import { diarizationNotConfigured } from '../transcription-errors';
import { settleTogether } from '../settle-together';
import { planTranscription, TranscriptionPlan } from '../transcription-plan';
import { transcriptionReply, TranscriptionReply } from '../transcription-reply';
import type { UpstreamTranscript } from '../transcript.types';
import { CreateTranscriptionCommand } from './create-transcription.command';
import type { CreateTranscriptionRequestDto } from './create-transcription.request.dto';
import { MediaGate } from '../../media';
import { PreparedAudio, prepareAudio } from './prepare-audio';
import { diarizationModeOf, transcribeUpstream, UpstreamAnswer } from './transcribe-upstream';
import { holdDuring } from '../../budgets/hold-during';

export const TRANSCRIPTION_ENDPOINT = '/v1/audio/transcriptions';

function planOf(request: CreateTranscriptionRequestDto): TranscriptionPlan {
  return planTranscription({
    format: request.response_format ?? 'json',
    granularities: request.timestamp_granularities,
    speakerLabels: request.speaker_labels ?? false,
    numSpeakers: request.num_speakers,
    language: request.language,
  });
}

/** Billed on the gateway's own measurement of the upload; the upstream's token report only backs `backend` metering. */
function measurementOf(audio: AudioProbe, transcript: UpstreamTranscript): Measurement {
  return {
    input: { audio: measuredAudio(audio) },
    output: {},
    reported: transcript.reportedAudioTokens === undefined ? undefined : { audioPromptTokens: transcript.reportedAudioTokens },
  };
}

function measuredAudio(audio: AudioProbe): MeasuredAudio[] {
  return [{ durationSeconds: audio.durationSeconds, channels: audio.channels }];
}

/** The spec's vector, plus OpenAI's usage shape for this model and format when the organization asks for it (src/billing/client-usage.ts). */
function clientUsageOf(model: CatalogModel, plan: TranscriptionPlan, usage: Usage, audioTokens: AudioTokens, format: UsageFormat | undefined): Usage | TranscriptionUsage {
  const kind = transcriptionUsageKind(plan.format, Boolean(model.architecture.audio_placeholder));
  return transcriptionClientUsage(usage, audioTokens, kind, format);
}

@CommandHandler(CreateTranscriptionCommand)
export class CreateTranscriptionHandler implements ICommandHandler<CreateTranscriptionCommand, TranscriptionReply> {
  constructor(
    private readonly catalog: CatalogService,
    private readonly gate: ModelGate,
    private readonly upstream: UpstreamClient,
    private readonly diarizer: DiarizationClient,
    private readonly billing: BillingService,
    private readonly budgets: BudgetHolds,
    private readonly media: MediaGate,
  ) {}

  async execute({ ctx, request }: CreateTranscriptionCommand): Promise<TranscriptionReply> {
    const model = this.catalog.requireKind(request.model, 'transcription');
    const plan = planOf(request);
    const viaService = diarizationModeOf(model, plan) === 'service';
    if (viaService && !this.diarizer.configured) throw diarizationNotConfigured();
    const audio = await prepareAudio(request.file, model.media_profiles?.audio, this.media.forRequest(ctx));
    if (!hasLimits(ctx.caller)) return this.transcribe(ctx, request, model, plan, audio, viaService);
    // Billed on the upload's own measurement: the most it can cost is known before the upstream call.
    return holdDuring(this.budgets, ctx, maxTranscriptionCostMicros(model, measuredAudio(audio.probe)), () => this.transcribe(ctx, request, model, plan, audio, viaService));
  }

  private async transcribe(
    ctx: RequestContext,
    request: CreateTranscriptionRequestDto,
    model: CatalogModel,
    plan: TranscriptionPlan,
    audio: PreparedAudio,
    viaService: boolean,
  ): Promise<TranscriptionReply> {
    const audioSeconds = Number(audio.probe.durationSeconds);
    const release = this.gate.enter(model, ctx.caller.organizationId);
    try {
      const [{ transcript, speakers }, turns] = await this.callUpstreams(ctx, model, request, plan, audio, viaService);
      const enriched = enrichTranscript(plan, transcript, audioSeconds, turns ?? speakers);
      const { usage, metered } = await this.billing.chargeMetered({ ctx, model, endpoint: TRANSCRIPTION_ENDPOINT, measurement: measurementOf(audio.probe, transcript) });
      return transcriptionReply(plan, enriched, audioSeconds, clientUsageOf(model, plan, usage, metered.audioTokens, ctx.caller.organization.usage_format));
    } finally {
      release();
    }
  }

  private callUpstreams(
    ctx: RequestContext,
    model: CatalogModel,
    request: CreateTranscriptionRequestDto,
    plan: TranscriptionPlan,
    audio: PreparedAudio,
    viaService: boolean,
  ): Promise<[UpstreamAnswer, SpeakerEvidence | undefined]> {
    const audioSeconds = Number(audio.probe.durationSeconds);
    return settleTogether(ctx.signal, (signal) => [
      transcribeUpstream(this.upstream, { model, audio: audio.forwarded, plan, prompt: request.prompt, temperature: request.temperature, signal, ctx }, audioSeconds),
      viaService
        ? this.diarizer.diarize({ audio: audio.forwarded, audioSeconds, numSpeakers: plan.numSpeakers, signal })
        : Promise.resolve(undefined),
    ]);
  }
}
