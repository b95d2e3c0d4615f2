import type { ClientCompletion } from '../chat.types';

/** A complete JSON answer, or server-sent event frames to relay as they come. */
export type ChatCompletionResult =
  | { kind: 'completion'; body: ClientCompletion }
  | { kind: 'stream'; events: AsyncGenerator<string> };
