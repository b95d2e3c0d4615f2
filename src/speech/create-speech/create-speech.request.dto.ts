// POST /v1/audio/speech body. Enumerations, voices and languages the spec lists as 400 conditions
// carry spec400; ranges and types stay 422. Unknown properties pass through to the upstream.
import { IsIn, IsNotEmpty, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { spec400 } from '../../common/validation.pipe';
import { SPEECH_REQUEST_RULES } from '../../openapi/custom-validator-schemas';
import { DocumentedAs } from '../../openapi/documented-as.decorator';
import { SPEECH_FORMATS, STREAM_FORMATS, type SpeechFormat, type StreamFormat } from '../domain/speech-formats';

// The cross-field rules speech-plan.ts checks (streamable formats, reference audio), for the document.
@DocumentedAs(SPEECH_REQUEST_RULES)
export class CreateSpeechRequestDto {
  [passthrough: string]: unknown;

  @IsString()
  @IsNotEmpty()
  model!: string;

  @IsString()
  input!: string;

  @IsOptional()
  @IsString(spec400('unknown_voice'))
  voice?: string | null;

  @IsOptional()
  @IsString()
  instructions?: string | null;

  @IsOptional()
  @IsIn(SPEECH_FORMATS, spec400('unsupported_response_format'))
  response_format?: SpeechFormat | null;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.25)
  @Max(4)
  speed?: number | null;

  @IsOptional()
  @IsString(spec400('unsupported_language'))
  language?: string | null;

  @IsOptional()
  @IsIn(STREAM_FORMATS, spec400('unsupported_stream_format'))
  stream_format?: StreamFormat | null;

  @IsOptional()
  @IsString()
  ref_audio?: string | null;

  @IsOptional()
  @IsString()
  ref_text?: string | null;

  @IsOptional()
  @IsString()
  cache_salt?: string | null;
}
