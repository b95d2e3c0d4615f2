// POST /v1/decisions body shape. Shape violations are 422s; the spec's 400 rules (duplicate names,
// duplicate choice values, level counts, media) run in the handler; a question type outside the
// enum and `stream: true` are 400s here.
// `input` is checked by domain/decision-input.ts: its string-or-messages union has no DTO form, so
// its schema is declared beside it (DocumentedAs), as are the choice and level counts of question-rules.ts.
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, Equals, IsArray, IsDefined, IsIn, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength,
  ValidateBy, ValidateNested, ValidationOptions,
} from 'class-validator';
import { spec400 } from '../../common/validation.pipe';
import { DECISION_INPUT_SCHEMA } from '../../openapi/custom-validator-schemas';
import { DocumentedAs } from '../../openapi/documented-as.decorator';
import { RequiredWhen } from '../../openapi/required-when.decorator';
import type { ChoiceValue } from '../domain/decision.types';
import { INVALID_ENUM_VALUE } from '../domain/decision-input';
import { MAX_CHOICES, MAX_LEVELS, MIN_CHOICES, MIN_LEVELS } from '../domain/question-rules';

export const MAX_QUESTIONS = 200;
export const MAX_SAFETY_IDENTIFIER_LENGTH = 128;

function IsStringOrBoolean(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringOrBoolean',
      validator: {
        validate: (value: unknown) => typeof value === 'string' || typeof value === 'boolean',
        defaultMessage: () => '$property must be a string or a boolean',
      },
    },
    options,
  );
}

export class DecisionChoiceDto {
  @IsStringOrBoolean()
  value: ChoiceValue;

  @IsOptional()
  @IsString()
  description?: string;
}

export class DecisionLevelDto {
  @IsString()
  label: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsInt()
  value?: number;
}

export class DecisionQuestionDto {
  @IsIn(['predicate', 'choice', 'score'], spec400(INVALID_ENUM_VALUE))
  type: 'predicate' | 'choice' | 'score';

  @IsString()
  instructions: string;

  @IsOptional()
  @IsString()
  name?: string | null;

  @RequiredWhen('type', 'choice')
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DecisionChoiceDto)
  @DocumentedAs({ minItems: MIN_CHOICES, maxItems: MAX_CHOICES })
  choices?: DecisionChoiceDto[];

  @RequiredWhen('type', 'score')
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DecisionLevelDto)
  @DocumentedAs({ minItems: MIN_LEVELS, maxItems: MAX_LEVELS })
  levels?: DecisionLevelDto[];
}

export class DecisionInputAudioDto {
  @IsString()
  data: string;

  @IsOptional()
  @IsString()
  format?: string | null;
}

export class CreateDecisionRequestDto {
  @IsString()
  @IsNotEmpty()
  model: string;

  @IsDefined()
  @DocumentedAs(DECISION_INPUT_SCHEMA)
  input: unknown;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_QUESTIONS)
  @ValidateNested({ each: true })
  @Type(() => DecisionQuestionDto)
  questions: DecisionQuestionDto[];

  @IsOptional()
  @ValidateNested()
  @Type(() => DecisionInputAudioDto)
  input_audio?: DecisionInputAudioDto;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_SAFETY_IDENTIFIER_LENGTH)
  safety_identifier?: string;

  @IsOptional()
  @Equals(false, { message: 'Decisions have no streaming mode; omit stream or set it to false.', ...spec400('streaming_unsupported') })
  stream?: boolean;
}
