// PUT /v1/organizations/{id}/budget body: limit_usd null removes the budget (the configured one too).
import { IsDefined, IsOptional, ValidateIf } from 'class-validator';
import type { LimitReset } from '../../access/spend-limits';
import { IsLimitReset, IsUsdAmount } from '../key-fields.dto';

export class SetOrganizationBudgetRequestDto {
  @IsDefined()
  @ValidateIf((body: SetOrganizationBudgetRequestDto) => body.limit_usd !== null)
  @IsUsdAmount()
  limit_usd!: string | number | null;

  @IsOptional()
  @IsLimitReset()
  limit_reset?: LimitReset;
}
