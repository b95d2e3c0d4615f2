// Decorators shared by the chat message and content part DTOs: a class per value of a discriminating
// property (`role`, `type`), chosen when the body is turned into instances, and the OpenAPI schema
// written for what the generator cannot read (a union, a property fixed by the class chosen).
import { Type, type TypeHelpOptions } from 'class-transformer';
import { JSONSchema } from 'class-validator-jsonschema';

export type FieldDecorator = (target: object, key: string) => void;
type DocumentedSchema = Exclude<Parameters<typeof JSONSchema>[0], Function>;
type GeneratedSchema = { properties?: Record<string, unknown>; required?: string[] };

export const allOf = (decorators: FieldDecorator[]): FieldDecorator => (target, key) => decorators.forEach((decorate) => decorate(target, key));

/**
 * Array elements each turned into the class `classOf` picks for it. class-transformer's own subtype
 * lookup reads `element[property]` and throws on a null element (a 500 for `messages: [null]`), so
 * its list stays empty and the type function, which then receives each element, picks the class.
 * Without options (the OpenAPI generator) it names the fallback class.
 */
export const discriminated = (property: string, classOf: (options?: TypeHelpOptions) => Function): FieldDecorator =>
  Type(classOf, { discriminator: { property, subTypes: [] }, keepDiscriminatorProperty: true });

/** The property's whole OpenAPI schema, written here because the generator cannot read a union. */
export const Documented = (schema: (refPrefix: string) => object): FieldDecorator =>
  JSONSchema((_generated, options) => schema(options.refPointerPrefix) as DocumentedSchema);

/**
 * Documents the class as the variant whose `property` is `value`, and what it requires beyond what
 * its rules say (a ValidateIf reads as optional to the generator). No rule checks `property`: the
 * class was chosen by it, so the check could never fail and would cost every message or part.
 * `crossField` states a rule across properties (e.g. an `anyOf`); it is merged here because a class
 * keeps one class-level schema, so a second class decorator would replace this one.
 */
export const Variant = (property: string, value: string, requires: string[] = [], crossField: object = {}): ClassDecorator =>
  JSONSchema((schema) => {
    const generated = schema as GeneratedSchema;
    return {
      ...generated,
      properties: { [property]: { type: 'string', enum: [value] }, ...generated.properties },
      required: [property, ...(generated.required ?? []), ...requires],
      ...crossField,
    } as DocumentedSchema;
  }) as ClassDecorator;
