import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy, ValidateNested } from 'class-validator';
import { dtoSchemas } from './dto-schemas';
import { convertNullable } from './oas31';

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
