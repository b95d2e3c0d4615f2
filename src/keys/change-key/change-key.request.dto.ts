// PATCH /v1/keys/{id} body: every field optional; absent is unchanged, null clears (name cannot be cleared).
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import type { LimitReset } from '../../access/spend-limits';
import { IsLimitReset, IsTimestamp, IsUsdAmount, KeyRateLimitDto, MAX_KEY_NAME_LENGTH } from '../key-fields.dto';

export class ChangeKeyRequestDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_KEY_NAME_LENGTH)
  name?: string;

  @IsOptional()
  @IsBoolean()
  disabled?: boolean;

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
