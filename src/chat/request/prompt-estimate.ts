// The gateway's prompt-size estimate, used only to refuse prompts over a model's limits before
// they reach the upstream (billing always uses the upstream's exact count). Text counts one token
// per 4 UTF-8 bytes, the usual BPE average; media counts exactly what its placeholder costs.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { ChatMessage } from '../chat.types';

const BYTES_PER_TEXT_TOKEN = 4;

export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

export function estimateTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TEXT_TOKEN);
}

export function estimatePromptTokens(messages: readonly ChatMessage[], model: CatalogModel, mediaTokens: number): number {
  const template = model.architecture.chat_template;
  const templateTokens = template ? template.per_request + template.per_message * messages.length : 0;
  const textTokens = messages.reduce((sum, message) => sum + estimateTextTokens(messageText(message)), 0);
  return templateTokens + textTokens + mediaTokens;
}
