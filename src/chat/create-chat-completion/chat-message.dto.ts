// Chat messages, one class per role. `content` is a string, null or a non-empty array of the role's
// part types, on every role (the spec; null is forwarded as sent and the upstream decides). Following
// OpenAI, it must be present except on an assistant message that answers with tool_calls,
// function_call, refusal or audio instead; a tool message names its `tool_call_id`; the
// deprecated function message names its function. A message of any other role (or none) becomes
// ChatMessageDto, whose only rule lists the roles. Only the class of a message's own role is run,
// so each message costs its own few rules. Extra properties pass through to the upstream.
import { RequiredWhen } from '../../openapi/required-when.decorator';
import { Type, type TypeHelpOptions } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, IsString, ValidateIf, ValidateNested } from 'class-validator';
import type { ContentPart } from '../chat.types';
import { ASSISTANT_PARTS, TEXT_PARTS, USER_PARTS } from './chat-content-part.dto';
import { Documented, FieldDecorator, Variant, allOf, discriminated } from './discriminated';
import { MessageContent, oneOfBy } from './message-content';

export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;

const REQUIRED_CONTENT = 'content is required';

@Variant('role', 'system', ['content'])
export class ChatSystemMessageDto {
  role!: 'system';

  @MessageContent({ parts: TEXT_PARTS, missing: REQUIRED_CONTENT })
  content!: string | ContentPart[];

  @IsOptional()
  @IsString()
  name?: string | null;

  [field: string]: unknown;
}

@Variant('role', 'developer', ['content'])
export class ChatDeveloperMessageDto {
  role!: 'developer';

  @MessageContent({ parts: TEXT_PARTS, missing: REQUIRED_CONTENT })
  content!: string | ContentPart[];

  @IsOptional()
  @IsString()
  name?: string | null;

  [field: string]: unknown;
}

@Variant('role', 'user', ['content'])
export class ChatUserMessageDto {
  role!: 'user';

  @MessageContent({ parts: USER_PARTS, missing: REQUIRED_CONTENT })
  content!: string | ContentPart[];

  @IsOptional()
  @IsString()
  name?: string | null;

  [field: string]: unknown;
}

export class ChatFunctionCallDto {
  @IsString()
  name!: string;

  @IsString()
  arguments!: string;

  [field: string]: unknown;
}

export class ChatCustomToolCallDto {
  @IsString()
  name!: string;

  @IsString()
  input!: string;

  [field: string]: unknown;
}

export class ChatToolCallDto {
  @IsString()
  id!: string;

  @IsIn(['function', 'custom'], { message: 'type must be one of function, custom' })
  type!: 'function' | 'custom';

  @RequiredWhen('type', 'function')
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFunctionCallDto)
  function?: ChatFunctionCallDto;

  @RequiredWhen('type', 'custom')
  @IsObject()
  @ValidateNested()
  @Type(() => ChatCustomToolCallDto)
  custom?: ChatCustomToolCallDto;

  [field: string]: unknown;
}

export class ChatAssistantAudioDto {
  @IsString()
  id!: string;

  [field: string]: unknown;
}

/** An assistant turn may answer with tool calls, a function call, a refusal or audio instead of content. */
const answersWithoutContent = (message: Record<string, unknown>): boolean =>
  (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) ||
  message.function_call != null ||
  typeof message.refusal === 'string' ||
  message.audio != null;

/** answersWithoutContent as the document states it: content (null included), or one of the answers that replace it. */
const ANSWERS_SOMETHING = {
  anyOf: [
    { properties: { content: { type: ['string', 'array', 'null'] } }, required: ['content'] },
    { properties: { tool_calls: { type: 'array', minItems: 1 } }, required: ['tool_calls'] },
    { properties: { function_call: { type: 'object' } }, required: ['function_call'] },
    { properties: { refusal: { type: 'string' } }, required: ['refusal'] },
    { properties: { audio: { type: 'object' } }, required: ['audio'] },
  ],
};

@Variant('role', 'assistant', [], ANSWERS_SOMETHING)
export class ChatAssistantMessageDto {
  role!: 'assistant';

  @MessageContent({
    parts: ASSISTANT_PARTS,
    mayOmit: answersWithoutContent,
    missing: 'content is required unless tool_calls, function_call, refusal or audio is given',
  })
  content?: string | ContentPart[] | null;

  @IsOptional()
  @IsString()
  name?: string | null;

  @IsOptional()
  @IsString()
  refusal?: string | null;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ChatToolCallDto)
  tool_calls?: ChatToolCallDto[] | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFunctionCallDto)
  function_call?: ChatFunctionCallDto | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatAssistantAudioDto)
  audio?: ChatAssistantAudioDto | null;

  [field: string]: unknown;
}

@Variant('role', 'tool', ['content'])
export class ChatToolMessageDto {
  role!: 'tool';

  @MessageContent({ parts: TEXT_PARTS, missing: REQUIRED_CONTENT })
  content!: string | ContentPart[];

  @IsString({ message: 'tool_call_id must be a string naming the tool call answered' })
  tool_call_id!: string;

  [field: string]: unknown;
}

/** Deprecated by OpenAI in favour of tool messages, still accepted there. */
@Variant('role', 'function', ['content'])
export class ChatFunctionMessageDto {
  role!: 'function';

  @MessageContent({ parts: null, missing: 'content is required (a string or null)' })
  content!: string | null;

  @IsString()
  name!: string;

  [field: string]: unknown;
}

/** A message whose `role` is missing or none of CHAT_ROLES: only the role is reported. */
export class ChatMessageDto {
  @IsIn(CHAT_ROLES, { message: `role must be one of ${CHAT_ROLES.join(', ')}` })
  role!: string;

  [field: string]: unknown;
}

export type ChatMessageClass = new () => object;

export const MESSAGE_CLASSES: Readonly<Record<(typeof CHAT_ROLES)[number], ChatMessageClass>> = {
  system: ChatSystemMessageDto,
  developer: ChatDeveloperMessageDto,
  user: ChatUserMessageDto,
  assistant: ChatAssistantMessageDto,
  tool: ChatToolMessageDto,
  function: ChatFunctionMessageDto,
};

/** The class a message is validated as: its role's, else ChatMessageDto (also for the OpenAPI generator). */
export function messageClassOf(options?: TypeHelpOptions): ChatMessageClass {
  const role = (options?.object as { role?: unknown } | null | undefined)?.role;
  return typeof role === 'string' && Object.hasOwn(MESSAGE_CLASSES, role) ? MESSAGE_CLASSES[role as keyof typeof MESSAGE_CLASSES] : ChatMessageDto;
}

/** `messages` documented as one of the role classes, told apart by `role`. */
const messagesSchema = (refPrefix: string): object => ({
  type: 'array',
  minItems: 1,
  items: oneOfBy(CHAT_ROLES, (role) => MESSAGE_CLASSES[role as keyof typeof MESSAGE_CLASSES], refPrefix),
});

/** `messages`: each element checked as its role's class only; documented as the union of the roles. */
export const ChatMessages = (): FieldDecorator =>
  // IsObject: class-validator would check the elements of a nested array as if they were messages.
  allOf([IsObject({ each: true }), ValidateNested({ each: true }), discriminated('role', messageClassOf), Documented(messagesSchema)]);
