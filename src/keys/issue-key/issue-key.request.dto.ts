// POST /v1/keys body. Shape violations are 422s; that the organizations exist is checked by the handler (400).
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ORGANIZATION_ID_PATTERN } from '../../access/access.types';
import { IsPrintableName, KeyTermsDto, MAX_KEY_NAME_LENGTH, MAX_KEY_ORGANIZATIONS } from '../key-fields.dto';

export class IssueKeyRequestDto extends KeyTermsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_KEY_NAME_LENGTH)
  @IsPrintableName()
  name!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_KEY_ORGANIZATIONS)
  @IsString({ each: true })
  @Matches(ORGANIZATION_ID_PATTERN, { each: true })
  organizations!: string[];

  @IsOptional()
  @IsString()
  @Matches(ORGANIZATION_ID_PATTERN)
  default_organization?: string;
}
