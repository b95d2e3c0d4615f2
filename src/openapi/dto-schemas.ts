// Request schemas derived from the class-validator decorators the DTOs already carry, so the
// document says what the validation pipe enforces and cannot drift from it.
import { IS_OPTIONAL, MAX, MIN, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { ISchemaConverters } from 'class-validator-jsonschema/build/defaultConverters';
import type { IOptions } from 'class-validator-jsonschema/build/options';
import type { JsonSchema, SchemaConverters } from './json-schema';
import { CUSTOM_VALIDATOR_SCHEMAS } from './custom-validator-schemas';
import { classesWithVariantFields, variantFieldRules, withVariantFields } from './required-when.decorator';

// class-transformer publishes its metadata storage (needed to follow @Type to nested DTOs) only
// under this path; see the class-validator-jsonschema README.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

export const SCHEMA_REF_PREFIX = '#/components/schemas/';

const PRIMITIVES = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
]);

/** A custom validator says nothing about the type; the declared TS type does when it is a primitive. */
function declaredType(meta: ValidationMetadata): JsonSchema {
  const type: unknown = Reflect.getMetadata('design:type', (meta.target as Function).prototype, meta.propertyName);
  return PRIMITIVES.get(type) ?? {};
}


const converters: SchemaConverters = {
  ...CUSTOM_VALIDATOR_SCHEMAS,
  // IsOptional lets null through as well as absence; `nullable` is turned into 3.1 form later.
  [ValidationTypes.CONDITIONAL_VALIDATION]: (meta) => (meta.name === IS_OPTIONAL ? { nullable: true } : {}),
  [ValidationTypes.CUSTOM_VALIDATION]: (meta) => declaredType(meta),
  // The library would add `type: number`, overriding IsInt's `integer` depending on decorator order.
  [MIN]: (meta) => ({ minimum: meta.constraints[0] }),
  [MAX]: (meta) => ({ maximum: meta.constraints[0] }),
};

/** One schema per class-validator-decorated class, by class name, refs pointing into components. */
export function dtoSchemas(): Record<string, JsonSchema> {
  const options: Partial<IOptions> = {
    refPointerPrefix: SCHEMA_REF_PREFIX,
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: converters as unknown as ISchemaConverters,
  };
  const schemas = validationMetadatasToSchemas(options) as Record<string, JsonSchema>;
  for (const target of classesWithVariantFields()) {
    const schema = schemas[target.name];
    if (schema) schemas[target.name] = withVariantFields(schema, variantFieldRules(target));
  }
  return schemas;
}
