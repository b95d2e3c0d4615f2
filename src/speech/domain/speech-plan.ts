// Decides, before any upstream work, which model serves a speech request and how: the alias
// routes by what the request carries, and every spec 400 about voices and formats is raised here.
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import { DEFAULT_STREAMED_FORMAT, STREAMABLE_FORMATS, type SpeechFormat, type StreamFormat } from './speech-formats';
import { upstreamLanguage } from './speech-languages';
import { presetsOf } from './voice-list';

export interface SpeechChoices {
  model: string;
  voice?: string | null;
  instructions?: string | null;
  response_format?: SpeechFormat | null;
  stream_format?: StreamFormat | null;
  language?: string | null;
  ref_audio?: string | null;
  ref_text?: string | null;
}

export type SpeechDelivery = 'buffered' | StreamFormat;

export interface SpeechPlan {
  model: CatalogModel;
  voice: string | null;
  /** null leaves the container to the model (buffered requests without response_format). */
  format: SpeechFormat | null;
  delivery: SpeechDelivery;
  /** The voice is cloned from `ref_audio`. */
  clone: boolean;
  /** The voice is designed from `instructions` (a model without presets). */
  design: boolean;
  /** The upstream's name for the requested language. */
  language: string | null;
}

const supportsCloning = (model: CatalogModel) => model.supported_parameters?.includes('ref_audio') ?? false;

/** `members`: the models the public id stands for (one, or an alias's members); never empty. */
export function planSpeech(members: readonly CatalogModel[], choices: SpeechChoices): SpeechPlan {
  const unsupported = members.find((member) => member.kind !== 'speech');
  if (unsupported) {
    throw ApiError.badRequest('unsupported_model', `The model '${choices.model}' does not synthesize speech.`, 'model');
  }
  const delivery: SpeechDelivery = choices.stream_format ?? 'buffered';
  const format = outputFormat(delivery, choices.response_format ?? null);
  rejectStrayReferenceFields(choices);
  const model = routedModel(members, choices);
  const design = presetsOf(model).length === 0;
  if (design && !choices.instructions?.trim()) {
    throw ApiError.badRequest('missing_voice_description', `The model '${model.id}' designs its voice from 'instructions'; describe the voice there.`, 'instructions');
  }
  return {
    model,
    voice: choices.voice ?? null,
    format,
    delivery,
    clone: Boolean(choices.ref_audio),
    design,
    language: choices.language ? upstreamLanguage(choices.language) : null,
  };
}

function outputFormat(delivery: SpeechDelivery, requested: SpeechFormat | null): SpeechFormat | null {
  if (delivery === 'buffered') return requested;
  if (requested === null) return DEFAULT_STREAMED_FORMAT;
  if (!STREAMABLE_FORMATS.includes(requested)) {
    throw ApiError.badRequest('unsupported_stream_format', `Only ${STREAMABLE_FORMATS.join(' and ')} can be streamed; '${requested}' cannot.`, 'response_format');
  }
  return requested;
}

function rejectStrayReferenceFields(choices: SpeechChoices): void {
  if (choices.ref_text && !choices.ref_audio) {
    throw ApiError.badRequest('ref_text_without_ref_audio', "'ref_text' is the transcript of 'ref_audio' and needs it.", 'ref_text');
  }
  if (choices.ref_audio && choices.voice) {
    throw ApiError.badRequest('conflicting_voice', "Send either a preset 'voice' or 'ref_audio' to clone, not both.", 'voice');
  }
}

/** Reference audio goes to the member that clones; a preset to the first member listing it. */
function routedModel(members: readonly CatalogModel[], choices: SpeechChoices): CatalogModel {
  if (choices.ref_audio) {
    const cloner = members.find(supportsCloning);
    if (!cloner) throw ApiError.badRequest('unsupported_parameter', `The model '${choices.model}' does not clone voices from 'ref_audio'.`, 'ref_audio');
    return cloner;
  }
  if (!choices.voice) return members[0];
  const owner = members.find((member) => presetsOf(member).includes(choices.voice!));
  if (!owner) {
    const hint = `List them with GET /v1/audio/voices?model=${choices.model}.`;
    throw ApiError.badRequest('unknown_voice', `'${choices.voice}' is not a preset voice of '${choices.model}'. ${hint}`, 'voice');
  }
  return owner;
}
