// The non-streamed answer: call the upstream, measure what came back, bill, and relay every field
// of the upstream's answer with the gateway's `usage` in place of the upstream's (the spec's vector,
// with OpenAI's token fields read off it for a `usage_format: openai` organization, src/billing/client-usage.ts).
import type { BillingService } from '../../billing/billing.service';
import { chatClientUsage } from '../chat-usage';
import type { CatalogModel } from '../../catalog/catalog.types';
import { ApiError } from '../../common/api-error';
import type { RequestContext } from '../../common/request-context';
import type { ModerationClient } from '../../moderation/moderation.client';
import type { UpstreamClient } from '../../upstream/upstream.client';
import type { AssistantMessage, ClientCompletion, UpstreamCompletion } from '../chat.types';
import { messageText, estimateTextTokens } from '../request/prompt-estimate';
import type { AnswerModeration } from '../response/answer-moderation';
import { chatMeasurement } from '../response/chat-measurement';
import { measureOutputClips } from '../response/output-audio';
import { tallyTools } from '../response/tool-usage';
import { upstreamReportOf } from '../response/upstream-report';
import type { PreparedChat } from './prepare-chat-request';

export const CHAT_ENDPOINT = '/v1/chat/completions';

export interface ChatDependencies {
  upstream: UpstreamClient;
  billing: BillingService;
  moderation: ModerationClient;
}

export async function completeChat(deps: ChatDependencies, prepared: PreparedChat, ctx: RequestContext, moderation: AnswerModeration | null): Promise<ClientCompletion> {
  const { model } = prepared;
  const response = await deps.upstream.send(model, { path: '/chat/completions', json: prepared.upstreamBody, signal: ctx.signal, ctx });
  const completion = await readCompletion(await deps.upstream.readText(model, response), model);
  const messages = (completion.choices ?? []).map((choice) => choice.message);
  const clips = messages.flatMap((message) => (message?.audio?.data ? [Buffer.from(message.audio.data, 'base64')] : []));
  const measurement = chatMeasurement({
    report: upstreamReportOf(completion.usage),
    media: prepared.media,
    outputAudio: await measureOutputClips(clips, prepared.audioOutput?.format, model),
    tools: tallyTools(messages, prepared.webSearchRequested),
    fallback: { promptTokens: prepared.promptTextEstimate, completionTokens: completionTextEstimate(messages) },
    limits: prepared.reportLimits,
  });
  const screened = moderation ? { moderation: await moderation.finish(messages.flatMap(answerTexts)) } : {};
  const { usage, metered } = await deps.billing.chargeMetered({ ctx, model, endpoint: CHAT_ENDPOINT, measurement });
  return { ...completion, model: model.id, ...screened, usage: chatClientUsage(usage, metered.audioTokens, ctx.caller.organization.usage_format) };
}

function readCompletion(text: string, model: CatalogModel): UpstreamCompletion {
  try {
    const parsed = JSON.parse(text) as UpstreamCompletion;
    if (parsed && typeof parsed === 'object' && Array.isArray(parsed.choices)) return parsed;
  } catch {
    /* reported below */
  }
  throw ApiError.upstream('upstream_invalid_response', `The model '${model.id}' returned a response that is not a chat completion.`);
}

const answerTexts = (message: AssistantMessage | undefined) =>
  [message?.content, message?.refusal as string | undefined, message?.audio?.transcript];

function completionTextEstimate(messages: readonly (AssistantMessage | undefined)[]): number {
  return messages.reduce((sum, message) => sum + estimateTextTokens(message ? messageText({ role: 'assistant', content: message.content }) : ''), 0);
}
