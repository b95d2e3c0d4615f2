// Tool work in an answer. Function and custom tool calls are counted as the model emitted them.
// Web search has no tool call in chat completions: a choice whose message cites URLs
// (url_citation annotations) on a request with `web_search_options` counts one search.
import type { AssistantMessage } from '../chat.types';

export interface ToolTally {
  /** Every tool call, web searches included (OutputUsage.tools.call_count). */
  toolCalls: number;
  webSearchCalls: number;
}

export function searchedTheWeb(message: AssistantMessage | undefined): boolean {
  return (message?.annotations ?? []).some((annotation) => annotation?.type === 'url_citation');
}

export function tallyTools(messages: readonly (AssistantMessage | undefined)[], webSearchRequested: boolean): ToolTally {
  const emitted = messages.reduce((sum, message) => sum + (message?.tool_calls?.length ?? 0), 0);
  const webSearchCalls = webSearchRequested ? messages.filter(searchedTheWeb).length : 0;
  return { toolCalls: emitted + webSearchCalls, webSearchCalls };
}
