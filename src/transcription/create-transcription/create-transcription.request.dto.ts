// The multipart fields of POST /v1/audio/transcriptions after reading. Multipart sends every value
// as text, so numbers and booleans are converted first; text that does not convert stays as sent
// and fails its type check (422). The spec's 400 conditions are marked with spec400.
import { Transform, TransformFnParams } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import ISO6391 from 'iso-639-1';
import { spec400 } from '../../common/validation.pipe';
import { CheckedWhen } from '../../openapi/required-when.decorator';
import { TIMESTAMP_GRANULARITIES, TRANSCRIPTION_FORMATS, TimestampGranularity, TranscriptionFormat } from '../transcript.types';

export interface UploadedAudio {
  filename: string;
  mimetype: string;
  bytes: Buffer;
}

const LANGUAGE_CODES = ISO6391.getAllCodes();

function toNumber({ value }: TransformFnParams): unknown {
  return typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

function toBoolean({ value }: TransformFnParams): unknown {
  const text = typeof value === 'string' ? value.toLowerCase() : value;
  return text === 'true' ? true : text === 'false' ? false : value;
}

/** Codes are matched case-insensitively and forwarded (and echoed) lowercase, as ISO 639-1 writes them. */
const toLowerCase = ({ value }: TransformFnParams): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

export class CreateTranscriptionRequestDto {
  @IsDefined({ message: 'file is required: upload the audio as a multipart file part named `file`' })
  file!: UploadedAudio;

  @IsString()
  @IsNotEmpty()
  model!: string;

  @IsOptional()
  @Transform(toLowerCase)
  @IsIn(LANGUAGE_CODES, {
    message: 'language must be an ISO-639-1 code such as `en`, not a language name',
    ...spec400('unsupported_language'),
  })
  language?: string;

  @IsOptional()
  @IsString()
  prompt?: string;

  @IsOptional()
  @IsIn(TRANSCRIPTION_FORMATS, {
    message: `response_format must be one of ${TRANSCRIPTION_FORMATS.join(', ')}`,
    ...spec400('unsupported_response_format'),
  })
  response_format?: TranscriptionFormat;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber()
  @Min(0)
  @Max(1)
  temperature?: number;

  @IsOptional()
  @IsArray()
  @IsIn(TIMESTAMP_GRANULARITIES, {
    each: true,
    message: `timestamp_granularities[] entries must be ${TIMESTAMP_GRANULARITIES.join(' or ')}`,
    ...spec400('unsupported_timestamp_granularity'),
  })
  timestamp_granularities?: TimestampGranularity[];

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  speaker_labels?: boolean;

  /** There is no streaming mode; `stream=false` is accepted (SDKs may send it) and not forwarded. */
  @IsOptional()
  @Transform(toBoolean)
  @IsIn([false], { message: 'stream is not supported on this endpoint: the transcript arrives in one response', ...spec400('streaming_unsupported') })
  stream?: boolean;

  /** Ignored, hence not even checked, without speaker_labels (spec). */
  @IsOptional()
  @CheckedWhen('speaker_labels', true)
  @Transform(toNumber)
  @IsInt()
  @Min(1)
  num_speakers?: number;
}
