// For validation done in code rather than by decorators (a union the DTO cannot express, a count
// checked by a domain rule): the property's schema, merged into what class-validator-jsonschema
// derives from its decorators. Build it from the same constants the check uses.
import { JSONSchema } from 'class-validator-jsonschema';
import type { JsonSchema } from './json-schema';

/** On a property: merged into its derived schema. On a class: merged into the object's (cross-field rules). */
export const DocumentedAs = (schema: JsonSchema): PropertyDecorator & ClassDecorator =>
  // The library types schemas in OpenAPI 3.0's dialect; ours are 3.1 (JSON Schema 2020-12).
  JSONSchema(schema as Parameters<typeof JSONSchema>[0]) as PropertyDecorator & ClassDecorator;
