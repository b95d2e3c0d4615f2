// The decisions endpoint's questions and answers (spec: POST /v1/decisions, "Decision answers").
// Choice values are typed: the string "true" and the boolean true are different options.

export type ChoiceValue = string | boolean;

export interface ChoiceOption {
  value: ChoiceValue;
  description?: string;
}

export interface ScoreLevel {
  label: string;
  description?: string;
  /** Gateway extension: the level's value for the expected score; defaults to its position. */
  value?: number;
}

interface QuestionBase {
  instructions: string;
  name?: string | null;
}

export interface PredicateQuestion extends QuestionBase {
  type: 'predicate';
}

export interface ChoiceQuestion extends QuestionBase {
  type: 'choice';
  choices: ChoiceOption[];
}

export interface ScoreQuestion extends QuestionBase {
  type: 'score';
  levels: ScoreLevel[];
}

export type DecisionQuestion = PredicateQuestion | ChoiceQuestion | ScoreQuestion;

export interface PredicateAnswer {
  type: 'predicate';
  name: string | null;
  probability: number;
}

export interface ChoiceAnswer {
  type: 'choice';
  name: string | null;
  choice: ChoiceValue;
  probabilities: { value: ChoiceValue; probability: number }[];
  confidence: number;
}

export interface ScoreAnswer {
  type: 'score';
  name: string | null;
  score: number;
  probabilities: { value: number; label: string; probability: number }[];
  confidence: number;
}

export interface RefusalAnswer {
  type: 'refusal';
  name: string | null;
}

export type DecisionAnswer = PredicateAnswer | ChoiceAnswer | ScoreAnswer | RefusalAnswer;

/** The spec's response `usage` for decisions: token counts, by modality when media was sent. */
export interface DecisionUsage {
  input_tokens: number;
  input_tokens_details: { multimodal_tokens: { text: number; image: number; audio: number } | null };
  output_tokens: number;
  total_tokens: number;
}

export interface DecisionResponse {
  model: string;
  answers: DecisionAnswer[];
  usage: DecisionUsage;
}
