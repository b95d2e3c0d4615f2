// GET /v1/keys query: offset pagination over the keys in issue order (configured keys first).
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_KEY_PAGE_SIZE = 20;
export const MAX_KEY_PAGE_SIZE = 100;

export class ListKeysRequestDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_KEY_PAGE_SIZE)
  limit?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset?: number;
}
