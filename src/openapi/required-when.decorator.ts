// Fields that belong to one variant of a request object: a decision question's `choices` when its
// `type` is `choice` (RequiredWhen), or a transcription's `num_speakers`, checked only when
// `speaker_labels` is true (CheckedWhen). One decorator gives both the validation (class-validator's
// ValidateIf: the field's other decorators run only for that variant) and the document's `if/then`
// rule, so the two cannot disagree.
import { applyDecorators } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import type { JsonSchema } from './json-schema';

const VARIANT_FIELDS = Symbol('openapi:variant-fields');
/** Every class that has such a rule, for the schema builder. */
const DECLARING_CLASSES = new Set<Function>();

export interface VariantFieldRule {
  property: string;
  discriminator: string;
  value: string | boolean;
  required: boolean;
}

function variantField(discriminator: string, value: string | boolean, required: boolean): PropertyDecorator {
  const record: PropertyDecorator = (target, property) => {
    const rules = variantFieldRules(target.constructor);
    Reflect.defineMetadata(VARIANT_FIELDS, [...rules, { property: String(property), discriminator, value, required }], target.constructor);
    DECLARING_CLASSES.add(target.constructor);
  };
  return applyDecorators(ValidateIf((object: Record<string, unknown>) => object[discriminator] === value), record);
}

/** Required, and checked, only when `discriminator` is `value`. */
export const RequiredWhen = (discriminator: string, value: string | boolean): PropertyDecorator => variantField(discriminator, value, true);

/** Checked only when `discriminator` is `value` (add IsOptional to let it be absent then too). */
export const CheckedWhen = (discriminator: string, value: string | boolean): PropertyDecorator => variantField(discriminator, value, false);

export const classesWithVariantFields = (): Function[] => [...DECLARING_CLASSES];

export const variantFieldRules = (target: Function): VariantFieldRule[] =>
  (Reflect.getOwnMetadata(VARIANT_FIELDS, target) as VariantFieldRule[] | undefined) ?? [];

/**
 * The object's schema with each variant's fields moved under `if discriminator = value then`: there
 * they hold their derived schema (and are required, for RequiredWhen); at the top they are any value,
 * because the validation does not look at them in other variants.
 */
export function withVariantFields(schema: JsonSchema, rules: VariantFieldRule[]): JsonSchema {
  const byVariant = new Map<string, VariantFieldRule[]>();
  for (const rule of rules) {
    const variant = `${rule.discriminator}=${String(rule.value)}`;
    byVariant.set(variant, [...(byVariant.get(variant) ?? []), rule]);
  }
  if (byVariant.size === 0) return schema;
  const properties = { ...schema.properties };
  const allOf = [...byVariant.values()].map((variant) => {
    const { discriminator, value } = variant[0];
    const requiredHere = variant.filter((rule) => rule.required).map((rule) => rule.property);
    const then: JsonSchema = { ...(requiredHere.length > 0 ? { required: requiredHere } : {}), properties: {} };
    for (const { property, required: isRequired } of variant) {
      then.properties![property] = properties[property] ?? {};
      properties[property] = { description: `${isRequired ? 'Required' : 'Checked'} when ${discriminator} is ${String(value)}; not checked otherwise.` };
    }
    return { if: { properties: { [discriminator]: { const: value } }, required: [discriminator] }, then };
  });
  return { ...schema, properties, allOf: [...(schema.allOf ?? []), ...allOf] };
}
