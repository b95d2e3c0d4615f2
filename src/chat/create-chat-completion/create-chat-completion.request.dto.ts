// The spec's chat request. Only the fields the gateway reads are declared; every other property
// (max_completion_tokens, n, user, store, metadata, tools, ...) passes through untouched.
import { Type } from 'class-transformer';
import {
  ArrayMinSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, ValidateBy, ValidateNested,
} from 'class-validator';
import { spec400 } from '../../common/validation.pipe';
import type { ContentPart } from '../chat.types';
import { CHAT_AUDIO_FORMATS } from '../request/output-modalities';

const isContentPart = (part: unknown): boolean =>
  typeof part === 'object' && part !== null && typeof (part as { type?: unknown }).type === 'string';

/** `content` is a string, null, or an array of parts that each name their `type`. */
const IsMessageContent = () =>
  ValidateBy({
    name: 'isMessageContent',
    validator: {
      validate: (value: unknown) =>
        value === null || value === undefined || typeof value === 'string' || (Array.isArray(value) && value.every(isContentPart)),
      defaultMessage: () => 'content must be a string, null, or an array of content parts each with a string type',
    },
  });

export class ChatMessageDto {
  @IsString()
  role!: string;

  @IsMessageContent()
  content?: string | ContentPart[] | null;

  [field: string]: unknown;
}

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
  @ValidateNested({ each: true })
  @Type(() => ChatMessageDto)
  messages!: ChatMessageDto[];

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

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  modalities?: string[] | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AudioOutputDto)
  audio?: AudioOutputDto | null;

  [field: string]: unknown;
}
