// Moderated models (top_provider.is_moderated): the input is screened while the model works, the
// answer once it is complete; both outcomes go into the answer's `moderation`. A flagged result is
// reported, not enforced (see docs/chat.md); a failed call is reported as an error object.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { ModerationClient } from '../../moderation/moderation.client';
import { moderationInputOf, moderationOutputOf } from '../../moderation/moderation-shapes';
import type { Moderation, ModerationOutcome } from '../../moderation/moderation.types';
import type { ChatMessage } from '../chat.types';

export interface AnswerModeration {
  /** Screens the answer's texts and returns both outcomes. */
  finish(answerTexts: readonly (string | null | undefined)[]): Promise<Moderation>;
}

export function startModeration(client: ModerationClient, model: CatalogModel, messages: readonly ChatMessage[], signal: AbortSignal): AnswerModeration | null {
  if (!model.top_provider.is_moderated) return null;
  const input: Promise<ModerationOutcome> = client.moderate(moderationInputOf(messages), signal);
  return {
    finish: async (answerTexts) => {
      const [inputOutcome, outputOutcome] = await Promise.all([input, client.moderate(moderationOutputOf(answerTexts), signal)]);
      return { input: inputOutcome, output: outputOutcome };
    },
  };
}
