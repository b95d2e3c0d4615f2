// The spec's chat request. Declared: the fields the gateway reads (messages per role, see
// chat-message.dto.ts), and the sampling parameters,
// checked against OpenAI's documented ranges so that nothing out of range (a negative or fractional
// token cap, `1e309` parsed as Infinity, a million choices) reaches a model. Every other property
// (user, store, metadata, tools, ...) passes through untouched.
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Max, Min, ValidateNested,
} from 'class-validator';
import { spec400 } from '../../common/validation.pipe';
import type { ChatMessage } from '../chat.types';
import { ChatMessages } from './chat-message.dto';
import { DocumentedAs } from '../../openapi/documented-as.decorator';
import { ref } from '../../openapi/json-schema';
import { CHAT_AUDIO_FORMATS } from '../request/output-modalities';

/** A finite number in [min, max], or null/absent. */
const OptionalNumberWithin = (min: number, max: number) =>
  applyDecorators(IsOptional(), IsNumber({ allowNaN: false, allowInfinity: false }), Min(min), Max(max));

/** An integer in [min, max], or null/absent. Integers beyond 2^53 would reach the upstream rounded. */
const OptionalIntegerWithin = (min: number, max: number) => applyDecorators(IsOptional(), IsInt(), Min(min), Max(max));

/** OpenAI's limit on `n`; the upstream generates (and the gateway holds) every choice. */
export const MAX_CHOICES = 128;

export class StreamOptionsDto {
  @IsOptional()
  @IsBoolean()
  include_usage?: boolean | null;

  [field: string]: unknown;
}

export class AudioOutputDto {
  @IsOptional()
  @IsString()
  voice?: string | null;

  @IsOptional()
  @IsIn(CHAT_AUDIO_FORMATS, { message: `audio.format must be one of ${CHAT_AUDIO_FORMATS.join(', ')}`, ...spec400('unsupported_audio_format') })
  format?: string | null;
}

export class CreateChatCompletionRequestDto {
  @IsString()
  @Matches(/\S/, { message: 'model must not be blank' })
  model!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ChatMessages()
  messages!: ChatMessage[];

  @IsOptional()
  @IsString()
  cache_salt?: string | null;

  @IsOptional()
  @IsBoolean()
  stream?: boolean | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => StreamOptionsDto)
  stream_options?: StreamOptionsDto | null;

  // A modality the model does not produce is a 400 (request/output-modalities.ts); no model produces
  // one outside the spec's OutputModality enumeration.
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @DocumentedAs({ items: ref('OutputModality') })
  modalities?: string[] | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AudioOutputDto)
  audio?: AudioOutputDto | null;

  // The model's completion cap (a 400 above it) is checked once the model is known.
  @OptionalIntegerWithin(1, Number.MAX_SAFE_INTEGER)
  max_completion_tokens?: number | null;

  @OptionalIntegerWithin(1, Number.MAX_SAFE_INTEGER)
  max_tokens?: number | null;

  @OptionalIntegerWithin(1, MAX_CHOICES)
  n?: number | null;

  @OptionalNumberWithin(0, 2)
  temperature?: number | null;

  @OptionalNumberWithin(0, 1)
  top_p?: number | null;

  @OptionalNumberWithin(-2, 2)
  presence_penalty?: number | null;

  @OptionalNumberWithin(-2, 2)
  frequency_penalty?: number | null;

  // The spec's DefaultParameters ranges for the vLLM sampling extensions; min_p is a probability.
  @OptionalIntegerWithin(0, Number.MAX_SAFE_INTEGER)
  top_k?: number | null;

  @OptionalNumberWithin(0, 1)
  min_p?: number | null;

  @OptionalNumberWithin(0, 2)
  repetition_penalty?: number | null;

  @OptionalIntegerWithin(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
  seed?: number | null;

  @IsOptional()
  @IsBoolean()
  logprobs?: boolean | null;

  @OptionalIntegerWithin(0, 20)
  top_logprobs?: number | null;

  [field: string]: unknown;
}
