// A chat message's `content` under its role's rule (chat-message.dto.ts): when it may be absent or
// null, which part types it may hold, what to say when it is wrong, and how the document shows it.
import { ValidateBy, ValidateIf, ValidateNested, type ValidationArguments } from 'class-validator';
import type { ContentPart } from '../chat.types';
import { PART_CLASSES, PartsOfRole, partClassOf } from './chat-content-part.dto';
import { Documented, FieldDecorator, allOf, discriminated } from './discriminated';

type Content = string | ContentPart[] | null | undefined;

export interface ContentRule {
  /** The role's part types, or none when content is text only (function messages). */
  parts: PartsOfRole | null;
  /** A message whose content may be absent, e.g. an assistant message with tool_calls (null is always allowed: the spec's `content` is a string, null or an array of parts). */
  mayOmit?: (message: Record<string, unknown>) => boolean;
  /** What to say when content is missing. */
  missing: string;
}

function contentProblem(value: unknown, rule: ContentRule): string | null {
  if (value === undefined) return rule.missing;
  const shape = rule.parts ? 'a string, null or an array of content parts' : 'a string or null';
  if (value === null) return null;
  if (!rule.parts || !Array.isArray(value)) return `content must be ${shape}`;
  if (value.length === 0) return 'content must not be an empty array';
  // class-validator would check the parts of a nested array as if they were the content's own.
  return value.some(Array.isArray) ? 'each content part must be an object' : null;
}

/**
 * A union of one class per value of `property`: each class fixes the property to its value, so the
 * branches are disjoint. (No OpenAPI `discriminator` keyword: the document's ajv checks run strict.)
 */
export function oneOfBy(values: readonly string[], classOf: (value: string) => Function, refPrefix: string): object {
  return { oneOf: values.map((value) => ({ $ref: `${refPrefix}${classOf(value).name}` })) };
}

function contentSchema(rule: ContentRule, refPrefix: string): object {
  const text = { type: 'string' };
  if (!rule.parts) return { oneOf: [text, { type: 'null' }] };
  const parts = { type: 'array', minItems: 1, items: oneOfBy(rule.parts.types, (type) => PART_CLASSES[type], refPrefix) };
  return { oneOf: [text, parts, { type: 'null' }] };
}

/**
 * A message's `content` under its role's rule. A string needs no further check; anything else is
 * checked by the rule and, when it is an array, part by part with the part's own class.
 */
export function MessageContent(rule: ContentRule): FieldDecorator {
  const decorators: FieldDecorator[] = [
    // A string and null are content as the spec allows it; the upstream decides what it makes of null.
    ValidateIf((message: Record<string, unknown>, value: Content) => typeof value !== 'string' && value !== null && !(value === undefined && rule.mayOmit?.(message))),
    ValidateBy({
      name: 'isMessageContent',
      validator: {
        validate: (value: unknown) => contentProblem(value, rule) === null,
        defaultMessage: (args?: ValidationArguments) => contentProblem(args?.value, rule) ?? 'content is invalid',
      },
    }),
    Documented((refPrefix) => contentSchema(rule, refPrefix)),
  ];
  if (rule.parts) decorators.push(ValidateNested({ each: true }), discriminated('type', partClassOf(rule.parts)));
  return allOf(decorators);
}
