// Request parts the swagger scan leaves empty for plain class-validator DTOs: query parameters,
// path template parameters, and multipart forms read by the controller.
import type { MultipartBody } from './api-multipart-body.decorator';
import type { JsonSchema } from './json-schema';
import { dropNullable } from './oas31';

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

/** One query parameter per DTO property; a query string cannot carry null, so nullable goes. */
export function queryParameters(dto: JsonSchema): ParameterObject[] {
  const required = new Set(dto.required ?? []);
  return Object.entries(dto.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: dropNullable(schema),
  }));
}

/** A string path parameter for every `{name}` of the template not already declared. */
export function missingPathParameters(path: string, declared: ParameterObject[]): ParameterObject[] {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  return names
    .filter((name) => !declared.some((parameter) => parameter.in === 'path' && parameter.name === name))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

const FILE: JsonSchema = { type: 'string', contentMediaType: 'application/octet-stream' };

/** The form as sent: file parts as binary, wire names as the client writes them, no nulls. */
export function multipartSchema(dto: JsonSchema, body: MultipartBody): JsonSchema {
  const wireName = (property: string) => body.wireNames?.[property] ?? property;
  const properties = Object.fromEntries(
    Object.entries(dto.properties ?? {}).map(([name, schema]) => {
      const file = body.files[name];
      const field = file === 'one' ? FILE : file === 'many' ? { type: 'array', items: FILE } : dropNullable(schema);
      return [wireName(name), field as JsonSchema];
    }),
  );
  const required = (dto.required ?? []).map(wireName);
  // Variant rules (RequiredWhen/CheckedWhen) carry over, their fields as sent too (no nulls).
  const allOf = dto.allOf?.map((rule) => (rule.then?.properties ? { ...rule, then: { ...rule.then, properties: withoutNulls(rule.then.properties) } } : rule));
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(allOf ? { allOf } : {}) };
}

const withoutNulls = (properties: Record<string, JsonSchema>) =>
  Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, dropNullable(schema)]));
