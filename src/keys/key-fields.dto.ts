// Field rules shared by the key API's request bodies; the bounds are named so tests and docs use them.
import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import { LIMIT_RESETS, usdToMicros } from '../access/spend-limits';

export const MAX_KEY_NAME_LENGTH = 100;
export const MAX_KEY_ORGANIZATIONS = 32;
export const MAX_RATE_LIMIT_REQUESTS = 1_000_000;
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;

/** A USD amount as usdToMicros takes it: a decimal string or a number, at most 6 decimals, below 10^13. */
export function IsUsdAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUsdAmount',
      validator: {
        validate: (value: unknown) => (typeof value === 'string' || typeof value === 'number') && usdToMicros(value) !== null,
        defaultMessage: () => '$property must be a USD amount (decimal string or number) from 0 below 10^13 with at most 6 decimals',
      },
    },
    options,
  );
}

export const IsLimitReset = () => IsIn([...LIMIT_RESETS], { message: `$property must be one of ${LIMIT_RESETS.join(', ')} (or null: never)` });

/** A key's own rate limit, enforced per replica on top of the organization's (docs/keys-and-budgets.md). */
export class KeyRateLimitDto {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_REQUESTS)
  requests!: number;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_LIMIT_WINDOW_SECONDS)
  window_seconds!: number;
}
