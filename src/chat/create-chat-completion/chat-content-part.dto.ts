// Chat content parts, one class per `type`, following OpenAI's rules (plus the spec's audio_url and
// video_url parts). Which types a message may carry depends on its role; a part of another type (or
// none) becomes that role's "any part" class, whose only rule names the allowed types, so the error
// points at the part's `type`. Extra properties of a part pass through.
import { Type, type TypeHelpOptions } from 'class-transformer';
import { Variant } from './discriminated';
import { IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';

export class ChatImageUrlDto {
  @IsString()
  url!: string;

  @IsOptional()
  @IsString()
  detail?: string | null;

  [field: string]: unknown;
}

export class ChatInputAudioDto {
  @IsString()
  data!: string;

  @IsOptional()
  @IsString()
  format?: string | null;

  [field: string]: unknown;
}

export class ChatMediaUrlDto {
  @IsString()
  url!: string;

  [field: string]: unknown;
}

export class ChatFileDto {
  @IsOptional()
  @IsString()
  file_data?: string | null;

  @IsOptional()
  @IsString()
  file_id?: string | null;

  @IsOptional()
  @IsString()
  filename?: string | null;

  [field: string]: unknown;
}

@Variant('type', 'text')
export class ChatTextPartDto {
  type!: 'text';

  @IsString()
  text!: string;

  [field: string]: unknown;
}

@Variant('type', 'refusal')
export class ChatRefusalPartDto {
  type!: 'refusal';

  @IsString()
  refusal!: string;

  [field: string]: unknown;
}

@Variant('type', 'image_url')
export class ChatImageUrlPartDto {
  type!: 'image_url';

  @IsObject()
  @ValidateNested()
  @Type(() => ChatImageUrlDto)
  image_url!: ChatImageUrlDto;

  [field: string]: unknown;
}

@Variant('type', 'input_audio')
export class ChatInputAudioPartDto {
  type!: 'input_audio';

  @IsObject()
  @ValidateNested()
  @Type(() => ChatInputAudioDto)
  input_audio!: ChatInputAudioDto;

  [field: string]: unknown;
}

@Variant('type', 'audio_url')
export class ChatAudioUrlPartDto {
  type!: 'audio_url';

  @IsObject()
  @ValidateNested()
  @Type(() => ChatMediaUrlDto)
  audio_url!: ChatMediaUrlDto;

  [field: string]: unknown;
}

@Variant('type', 'video_url')
export class ChatVideoUrlPartDto {
  type!: 'video_url';

  @IsObject()
  @ValidateNested()
  @Type(() => ChatMediaUrlDto)
  video_url!: ChatMediaUrlDto;

  [field: string]: unknown;
}

@Variant('type', 'file')
export class ChatFilePartDto {
  type!: 'file';

  @IsObject()
  @ValidateNested()
  @Type(() => ChatFileDto)
  file!: ChatFileDto;

  [field: string]: unknown;
}

export const USER_PART_TYPES = ['text', 'image_url', 'input_audio', 'audio_url', 'video_url', 'file'] as const;
export const ASSISTANT_PART_TYPES = ['text', 'refusal'] as const;
/** System, developer and tool messages carry text only. */
export const TEXT_PART_TYPES = ['text'] as const;

const typeOneOf = (types: readonly string[]) =>
  IsIn(types, { message: `type must be one of ${types.join(', ')}` });

/** A user message's part whose `type` is none of the user part types. */
export class ChatUserContentPartDto {
  @typeOneOf(USER_PART_TYPES)
  type!: string;

  [field: string]: unknown;
}

/** An assistant message's part whose `type` is neither text nor refusal. */
export class ChatAssistantContentPartDto {
  @typeOneOf(ASSISTANT_PART_TYPES)
  type!: string;

  [field: string]: unknown;
}

/** A system, developer or tool message's part whose `type` is not text. */
export class ChatTextOnlyContentPartDto {
  @typeOneOf(TEXT_PART_TYPES)
  type!: string;

  [field: string]: unknown;
}

export type PartClass = new () => object;

/** The class of every part type, by `type`. */
export const PART_CLASSES: Readonly<Record<string, PartClass>> = {
  text: ChatTextPartDto,
  refusal: ChatRefusalPartDto,
  image_url: ChatImageUrlPartDto,
  input_audio: ChatInputAudioPartDto,
  audio_url: ChatAudioUrlPartDto,
  video_url: ChatVideoUrlPartDto,
  file: ChatFilePartDto,
};

export interface PartsOfRole {
  types: readonly string[];
  /** The class a part of any other type (or a non-object) is checked as. */
  other: PartClass;
}

export const USER_PARTS: PartsOfRole = { types: USER_PART_TYPES, other: ChatUserContentPartDto };
export const ASSISTANT_PARTS: PartsOfRole = { types: ASSISTANT_PART_TYPES, other: ChatAssistantContentPartDto };
export const TEXT_PARTS: PartsOfRole = { types: TEXT_PART_TYPES, other: ChatTextOnlyContentPartDto };

/**
 * class-transformer's type function for one part (see `discriminated` in discriminated.ts): the
 * part's own class when its type is allowed for the role, else the role's "any part" class.
 * Called without options by the OpenAPI generator, which documents the role's "any part" class.
 */
export const partClassOf = (parts: PartsOfRole) => (options?: TypeHelpOptions): PartClass => {
  const type = (options?.object as { type?: unknown } | null | undefined)?.type;
  return typeof type === 'string' && parts.types.includes(type) ? PART_CLASSES[type] : parts.other;
};
