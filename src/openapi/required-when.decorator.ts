// A field required only for one variant of a discriminated request object (e.g. a decision
// question's `choices` when its `type` is `choice`). One decorator gives both the validation
// (class-validator's ValidateIf: the field's other decorators run only for that variant) and the
// document's `if/then` rule, so the two cannot disagree.
import { applyDecorators } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import type { JsonSchema } from './json-schema';

const REQUIRED_WHEN = Symbol('openapi:required-when');
/** Every class that has such a rule, for the schema builder. */
const DECLARING_CLASSES = new Set<Function>();

export interface RequiredWhenRule {
  property: string;
  discriminator: string;
  value: string;
}

export function RequiredWhen(discriminator: string, value: string): PropertyDecorator {
  const record: PropertyDecorator = (target, property) => {
    const rules = requiredWhenRules(target.constructor);
    Reflect.defineMetadata(REQUIRED_WHEN, [...rules, { property: String(property), discriminator, value }], target.constructor);
    DECLARING_CLASSES.add(target.constructor);
  };
  return applyDecorators(ValidateIf((object: Record<string, unknown>) => object[discriminator] === value), record);
}

export const classesWithRequiredWhen = (): Function[] => [...DECLARING_CLASSES];

export const requiredWhenRules = (target: Function): RequiredWhenRule[] =>
  (Reflect.getOwnMetadata(REQUIRED_WHEN, target) as RequiredWhenRule[] | undefined) ?? [];

/** `allOf` of `if discriminator = value then required [property]`, one per variant. */
export function requiredWhenSchema(rules: RequiredWhenRule[]): JsonSchema | undefined {
  const byVariant = new Map<string, RequiredWhenRule[]>();
  for (const rule of rules) {
    const variant = `${rule.discriminator}=${rule.value}`;
    byVariant.set(variant, [...(byVariant.get(variant) ?? []), rule]);
  }
  if (byVariant.size === 0) return undefined;
  return {
    allOf: [...byVariant.values()].map((variant) => ({
      if: { properties: { [variant[0].discriminator]: { const: variant[0].value } }, required: [variant[0].discriminator] },
      then: { required: variant.map((rule) => rule.property) },
    })),
  };
}
