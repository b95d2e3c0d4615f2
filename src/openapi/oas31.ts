// OpenAPI 3.1 is JSON Schema 2020-12: "or null" is a type (`["string","null"]` or a oneOf branch),
// not 3.0's `nullable` keyword, which generators (class-validator-jsonschema) still emit.
import { JsonSchema, orNull } from './json-schema';

/** The operations a 3.1 path item may hold (Nest's @All also yields search/query, which it may not). */
export const OAS_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function acceptsNull(schema: JsonSchema): boolean {
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return alternatives.some(acceptsNull);
  if (schema.$ref || schema.allOf || schema.enum || schema.const !== undefined) return false;
  return schema.type === undefined || schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
}

function withoutNullable(schema: JsonSchema): JsonSchema {
  const rest = { ...schema };
  delete rest.nullable;
  return schema.nullable !== true || acceptsNull(rest) ? rest : orNull(rest);
}

/** A deep copy of `value` with every `nullable` schema keyword turned into its 3.1 form. */
export function convertNullable<T>(value: T): T {
  if (Array.isArray(value)) return value.map(convertNullable) as T;
  if (value === null || typeof value !== 'object') return value;
  const converted = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, convertNullable(inner)]));
  return (typeof (value as JsonSchema).nullable === 'boolean' ? withoutNullable(converted as JsonSchema) : converted) as T;
}

/** A schema without `nullable`, for transports that cannot carry null (query strings, form fields). */
export function dropNullable(schema: JsonSchema): JsonSchema {
  const rest = { ...schema };
  delete rest.nullable;
  return rest;
}
