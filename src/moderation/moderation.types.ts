// The spec's Moderation object: for input and output, either the moderation service's results or
// an error object when the call failed (the chat request itself still succeeds).

export interface ModerationResult {
  categories: Record<string, boolean | null>;
  category_applied_input_types: Record<string, ('text' | 'image')[]>;
  category_scores: Record<string, number>;
  flagged: boolean;
  model: string;
  type: 'moderation_result';
}

export interface ModerationResults {
  model: string;
  results: ModerationResult[];
  type: 'moderation_results';
}

export interface ModerationErrorObject {
  code: string;
  message: string;
  type: 'error';
}

export type ModerationOutcome = ModerationResults | ModerationErrorObject;

export interface Moderation {
  input: ModerationOutcome;
  output: ModerationOutcome;
}

/** One item of an OpenAI `/v1/moderations` multimodal input array. */
export type ModerationInputItem = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** The service's answer (OpenAI shape): results without the per-result model and type. */
export interface ModerationServiceResponse {
  id?: string;
  model: string;
  results: Omit<ModerationResult, 'model' | 'type'>[];
}
