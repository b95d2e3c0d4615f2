// The simulated chat model's tokenizer: a word (letters/digits) or one other visible character is a
// token, and a streamed piece is one token with the whitespace before it. Deterministic, so tests
// can predict usage exactly.
const PIECE = /\s*(?:[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu;

export function tokenPieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

export function countTokens(text: string): number {
  return tokenPieces(text).length;
}

/** The first `limit` tokens of `text`. */
export function truncateTokens(text: string, limit: number): string {
  return tokenPieces(text).slice(0, limit).join('');
}
