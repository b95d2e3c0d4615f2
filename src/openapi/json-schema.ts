// The JSON Schema 2020-12 vocabulary OpenAPI 3.1 uses, as far as this document needs it, plus the
// few builders that keep the hand-written schemas short. @nestjs/swagger's SchemaObject type is the
// 3.0 dialect (boolean exclusiveMinimum, no const/prefixItems), hence our own.

import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  contentMediaType?: string;
  contentEncoding?: string;
  /** What the decoded content (`contentMediaType`) holds, e.g. the JSON in an SSE event's data. */
  contentSchema?: JsonSchema;
  deprecated?: boolean;
  default?: unknown;
  examples?: unknown[];
  /** OpenAPI 3.0's spelling of "or null"; converted away before the document is served. */
  nullable?: boolean;
}

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `type: [X, "null"]` for a plain type, `oneOf [X, null]` for anything else (refs, unions). */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !schema.$ref && !schema.oneOf && !schema.anyOf && !schema.allOf) {
    const withNull: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (schema.enum) withNull.enum = [...schema.enum, null];
    return withNull;
  }
  return { oneOf: [schema, { type: 'null' }] };
}

/** An object whose listed properties are all required unless named in `optional` (or it is 'all'). */
export function object(
  properties: Record<string, JsonSchema>,
  options: { optional?: string[] | 'all'; additional?: boolean; description?: string } = {},
): JsonSchema {
  const optional = new Set(options.optional === 'all' ? Object.keys(properties) : options.optional ?? []);
  const required = Object.keys(properties).filter((name) => !optional.has(name));
  return {
    type: 'object',
    ...(options.description ? { description: options.description } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: options.additional ?? false,
  };
}

export const string = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const integer = (minimum?: number): JsonSchema => ({ type: 'integer', ...(minimum === undefined ? {} : { minimum }) });
export const number = (): JsonSchema => ({ type: 'number' });
export const boolean = (): JsonSchema => ({ type: 'boolean' });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const constant = (value: string): JsonSchema => ({ type: 'string', const: value });
export const oneOfValues = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
/** A probability or confidence in [0, 1]. */
export const unitInterval = (): JsonSchema => ({ type: 'number', minimum: 0, maximum: 1 });

/** Our converters speak JSON Schema 2020-12; the library types its schemas in the 3.0 dialect. */
export type SchemaConverters = Record<string, JsonSchema | ((meta: ValidationMetadata) => JsonSchema)>;
