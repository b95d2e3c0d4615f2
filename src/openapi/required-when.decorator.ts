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

/**
 * The object's schema with each variant's fields moved under `if discriminator = value then`: there
 * they are required and hold their derived schema; at the top they are any value, because the
 * validation does not look at them in other variants.
 */
export function withRequiredWhen(schema: JsonSchema, rules: RequiredWhenRule[]): JsonSchema {
  const byVariant = new Map<string, RequiredWhenRule[]>();
  for (const rule of rules) {
    const variant = `${rule.discriminator}=${rule.value}`;
    byVariant.set(variant, [...(byVariant.get(variant) ?? []), rule]);
  }
  if (byVariant.size === 0) return schema;
  const properties = { ...schema.properties };
  const allOf = [...byVariant.values()].map((variant) => {
    const { discriminator, value } = variant[0];
    const then: JsonSchema = { required: variant.map((rule) => rule.property), properties: {} };
    for (const { property } of variant) {
      then.properties![property] = properties[property] ?? {};
      properties[property] = { description: `Required when ${discriminator} is ${value}; not checked otherwise.` };
    }
    return { if: { properties: { [discriminator]: { const: value } }, required: [discriminator] }, then };
  });
  return { ...schema, properties, allOf: [...(schema.allOf ?? []), ...allOf] };
}
