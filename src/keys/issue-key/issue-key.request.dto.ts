// POST /v1/keys body. Shape violations are 422s; that the organizations exist is checked by the handler (400).
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested,
} from 'class-validator';
import { ORGANIZATION_ID_PATTERN } from '../../access/access.types';
import type { LimitReset } from '../../access/spend-limits';
import { IsLimitReset, IsTimestamp, IsUsdAmount, KeyRateLimitDto, MAX_KEY_NAME_LENGTH, MAX_KEY_ORGANIZATIONS } from '../key-fields.dto';

export class IssueKeyRequestDto {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_KEY_NAME_LENGTH)
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

  @IsOptional()
  @IsTimestamp()
  expires_at?: string | null;

  @IsOptional()
  @IsUsdAmount()
  limit_usd?: string | number | null;

  @IsOptional()
  @IsLimitReset()
  limit_reset?: LimitReset;

  @IsOptional()
  @ValidateNested()
  @Type(() => KeyRateLimitDto)
  rate_limit?: KeyRateLimitDto | null;
}
