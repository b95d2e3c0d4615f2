// Field rules shared by the key API's request bodies; the bounds are named so tests and docs use them.
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min, ValidateBy, ValidateNested, type ValidationOptions } from 'class-validator';
import { LIMIT_RESETS, type LimitReset } from '../budgets/spend-limits';
import { MAX_USD_NUMBER, usdAmountMicros } from './usd-amount';
import { timestampOf } from './timestamp';
import { isPrintableName, PRINTABLE_NAME_RULE } from './printable-name';

export const MAX_KEY_NAME_LENGTH = 100;
export const MAX_KEY_ORGANIZATIONS = 32;
export const MAX_RATE_LIMIT_REQUESTS = 1_000_000;
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;

const USD_RULE = `a USD amount with at most 6 decimals: a decimal string below 10^13 or a number up to ${MAX_USD_NUMBER}`;

/** A USD amount (usd-amount.ts): a decimal string or a number, at most 6 decimals. */
export function IsUsdAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isUsdAmount', validator: { validate: (value: unknown) => usdAmountMicros(value) !== null, defaultMessage: () => `$property must be ${USD_RULE}` } },
    options,
  );
}

/** The same, or null (a budget removed). */
export function IsUsdAmountOrNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUsdAmountOrNull',
      validator: { validate: (value: unknown) => value === null || usdAmountMicros(value) !== null, defaultMessage: () => `$property must be ${USD_RULE}, or null` },
    },
    options,
  );
}

export function IsTimestamp(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isTimestamp', validator: { validate: (value: unknown) => timestampOf(value) !== null, defaultMessage: () => '$property must be an RFC 3339 date-time, e.g. 2027-01-01T00:00:00Z' } },
    options,
  );
}

/** A key name a terminal shows as written (printable-name.ts). */
export function IsPrintableName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isPrintableName', validator: { validate: isPrintableName, defaultMessage: () => `$property ${PRINTABLE_NAME_RULE}` } }, options);
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

/** The terms a key is issued with and that PATCH can change: expiry, spend limit, reset, own rate limit. */
export class KeyTermsDto {
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
