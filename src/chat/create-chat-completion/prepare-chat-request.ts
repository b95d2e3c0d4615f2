// Everything decided before the upstream is called: the model's rules (expiry, parameters, limits,
// output modalities), the media parts, and the body the upstream receives. Refusals here are
// never billed: nothing has reached a model yet.
import type { CatalogModel } from '../../catalog/catalog.types';
import type { MediaWork } from '../../media';
import type { ChatRequestBody, InputMediaMeasures } from '../chat.types';
import { prepareMessages } from '../media/prepare-messages';
import { rejectUnsupportedParameters } from '../request/generation-parameters';
import { mediaPlaceholderTokens } from '../request/media-tokens';
import { audioOutputRequest, type AudioOutputRequest } from '../request/output-modalities';
import { estimatePromptTokens } from '../request/prompt-estimate';
import { rejectCompletionOverLimit, rejectExpiredModel, rejectPromptOverLimits } from '../request/request-limits';
import { upstreamChatBody } from '../request/upstream-body';
import { chatReportLimits, type ChatReportLimits } from '../response/report-limits';

export interface PreparedChat {
  model: CatalogModel;
  upstreamBody: Record<string, unknown>;
  media: InputMediaMeasures;
  audioOutput: AudioOutputRequest | null;
  stream: boolean;
  includeUsage: boolean;
  webSearchRequested: boolean;
  /** The prompt's text estimate: what an interrupted stream bills when the upstream reported nothing. */
  promptTextEstimate: number;
  /** What bounds the upstream's usage report (docs/metering.md, "Plausibility bounds"). */
  reportLimits: ChatReportLimits;
}

export async function prepareChatRequest(body: ChatRequestBody, model: CatalogModel, organizationId: string, now: Date, work?: MediaWork): Promise<PreparedChat> {
  rejectExpiredModel(model, now);
  rejectUnsupportedParameters(body, model);
  rejectCompletionOverLimit(body, model);
  const audioOutput = audioOutputRequest(body, model);
  // The prompt as the media headers declare it is refused before any frame is decoded.
  const checkDeclared = (declared: InputMediaMeasures) =>
    rejectPromptOverLimits(estimatePromptTokens(body.messages, model, 0) + mediaPlaceholderTokens(declared, model), body, model);
  const { messages, media } = await prepareMessages(body.messages, model, work, checkDeclared);
  const promptTextEstimate = estimatePromptTokens(messages, model, 0);
  const promptEstimate = promptTextEstimate + mediaPlaceholderTokens(media, model);
  rejectPromptOverLimits(promptEstimate, body, model);
  const upstreamBody = upstreamChatBody({ body, model, organizationId, messages });
  return {
    model,
    upstreamBody,
    media,
    audioOutput,
    stream: body.stream === true,
    includeUsage: body.stream === true && body.stream_options?.include_usage === true,
    webSearchRequested: body.web_search_options !== undefined && body.web_search_options !== null,
    promptTextEstimate,
    reportLimits: chatReportLimits(upstreamBody, model, promptEstimate),
  };
}
