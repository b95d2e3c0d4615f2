// PATCH /v1/keys/{id} body: every field optional; absent is unchanged, null clears (name cannot be cleared).
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsPrintableName, KeyTermsDto, MAX_KEY_NAME_LENGTH } from '../key-fields.dto';

export class ChangeKeyRequestDto extends KeyTermsDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_KEY_NAME_LENGTH)
  @IsPrintableName()
  name?: string;

  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}
