// PUT /v1/organizations/{id}/budget body: limit_usd is required; null removes the budget (the configured one too).
import { IsOptional } from 'class-validator';
import type { LimitReset } from '../../budgets/spend-limits';
import { IsLimitReset, IsUsdAmountOrNull } from '../key-fields.dto';

export class SetOrganizationBudgetRequestDto {
  @IsUsdAmountOrNull()
  limit_usd!: string | number | null;

  @IsOptional()
  @IsLimitReset()
  limit_reset?: LimitReset;
}
