// The simulated chat model's tokenizer: a word (letters/digits) or one other visible character is a
// token, and a streamed piece is one token with the whitespace before it. Deterministic, so tests
// can predict usage exactly. A word longer than 256 characters counts as one token per 256 (as a real
// tokenizer splits it): an unbounded `+` over a prompt of megabytes overflowed V8's regexp backtracking
// stack once the pattern was compiled to native code (the simulator answered 500). Trailing whitespace
// is trimmed first: it is never a token, and matching `\s*` from every position of a long trailing run
// took quadratic time.
const PIECE = /\s*(?:[\p{L}\p{N}]{1,256}|[^\s\p{L}\p{N}])/gu;

export function tokenPieces(text: string): string[] {
  return text.trimEnd().match(PIECE) ?? [];
}

export function countTokens(text: string): number {
  return tokenPieces(text).length;
}

/** The first `limit` tokens of `text`. */
export function truncateTokens(text: string, limit: number): string {
  return tokenPieces(text).slice(0, limit).join('');
}
