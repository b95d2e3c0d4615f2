import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { DocumentedAs } from './documented-as.decorator';
import { dtoSchemas } from './dto-schemas';
import { convertNullable } from './oas31';
import { CheckedWhen, RequiredWhen } from './required-when.decorator';

const IsAnything = () => ValidateBy({ name: 'isAnythingForTheTest', validator: { validate: () => true } });

class SampleVoiceDto {
  @IsString()
  id!: string;
}

class SampleRequestDto {
  @IsString()
  model!: string;

  @IsOptional()
  @IsIn(['mp3', 'wav'])
  format?: string | null;

  @IsInt()
  @Min(1)
  @Max(10)
  count!: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => SampleVoiceDto)
  voice?: SampleVoiceDto;

  @IsAnything()
  label!: string;

  @IsAnything()
  extra!: unknown;
}

class SampleOptionDto {
  @IsString()
  label!: string;
}

class SampleQuestionDto {
  @IsIn(['plain', 'pick', 'rate'])
  kind!: string;

  @RequiredWhen('kind', 'pick')
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SampleOptionDto)
  @DocumentedAs({ minItems: 2, maxItems: 5 })
  options?: SampleOptionDto[];

  @RequiredWhen('kind', 'rate')
  @IsInt()
  steps?: number;

  @IsOptional()
  @DocumentedAs({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] })
  evidence?: unknown;

  @IsOptional()
  @CheckedWhen('strict', true)
  @IsInt()
  @Min(1)
  tolerance?: number;
}

describe('dtoSchemas', () => {
  const schemas = convertNullable(dtoSchemas());

  it('requires what is not IsOptional, and lets IsOptional fields be null', () => {
    expect(schemas.SampleRequestDto.required).toEqual(['model', 'count', 'label', 'extra']);
    expect(schemas.SampleRequestDto.properties?.format).toEqual({ type: ['string', 'null'], enum: ['mp3', 'wav', null] });
  });

  it('keeps IsInt an integer whatever the order of Min and Max', () => {
    expect(schemas.SampleRequestDto.properties?.count).toEqual({ type: 'integer', minimum: 1, maximum: 10 });
  });

  it('references nested DTOs by name and describes them too', () => {
    expect(schemas.SampleRequestDto.properties?.voice).toEqual({ oneOf: [{ $ref: '#/components/schemas/SampleVoiceDto' }, { type: 'null' }] });
    expect(schemas.SampleVoiceDto).toEqual({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
  });

  it('documents an unknown custom validator by its declared primitive type, else as any value', () => {
    expect(schemas.SampleRequestDto.properties?.label).toEqual({ type: 'string' });
    expect(schemas.SampleRequestDto.properties?.extra).toEqual({});
  });
});

describe('RequiredWhen and DocumentedAs', () => {
  const schemas = convertNullable(dtoSchemas());

  it('requires a variant\'s field, with its schema, by an if/then on the discriminator, and leaves it unchecked at the top', () => {
    expect(schemas.SampleQuestionDto.required).toEqual(['kind']);
    expect(schemas.SampleQuestionDto.allOf?.slice(0, 2)).toEqual([
      {
        if: { properties: { kind: { const: 'pick' } }, required: ['kind'] },
        then: { required: ['options'], properties: { options: expect.objectContaining({ type: 'array' }) } },
      },
      { if: { properties: { kind: { const: 'rate' } }, required: ['kind'] }, then: { required: ['steps'], properties: { steps: { type: 'integer' } } } },
    ]);
    expect(schemas.SampleQuestionDto.properties?.steps).toEqual({ description: 'Required when kind is rate; not checked otherwise.' });
  });

  it('checks a CheckedWhen field only for its variant, without requiring it', async () => {
    expect(schemas.SampleQuestionDto.allOf![2]).toEqual({
      if: { properties: { strict: { const: true } }, required: ['strict'] },
      then: { properties: { tolerance: { type: ['integer', 'null'], minimum: 1 } } },
    });
    const { validate } = await import('class-validator');
    const { plainToInstance } = await import('class-transformer');
    const errors = async (plain: object) => (await validate(plainToInstance(SampleQuestionDto, plain))).map((error) => error.property);
    expect(await errors({ kind: 'plain', tolerance: 0 })).toEqual([]);
    expect(await errors({ kind: 'plain', strict: true, tolerance: 0 })).toEqual(['tolerance']);
    expect(await errors({ kind: 'plain', strict: true })).toEqual([]);
  });

  it('merges a declared schema into the derived one', () => {
    const pick = schemas.SampleQuestionDto.allOf![0].then!.properties!.options;
    expect(pick).toMatchObject({ type: 'array', minItems: 2, maxItems: 5 });
    const declared = { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };
    expect(schemas.SampleQuestionDto.properties?.evidence).toEqual({ oneOf: [declared, { type: 'null' }] });
  });

  it('validates a field only for its variant, as the document says', async () => {
    const { validate } = await import('class-validator');
    const { plainToInstance } = await import('class-transformer');
    const errors = async (plain: object) => (await validate(plainToInstance(SampleQuestionDto, plain))).map((error) => error.property);
    expect(await errors({ kind: 'pick' })).toEqual(['options']);
    expect(await errors({ kind: 'rate', steps: 'x' })).toEqual(['steps']);
    expect(await errors({ kind: 'plain' })).toEqual([]);
  });
});
