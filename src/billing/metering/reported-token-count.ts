// An upstream's token count is used only when it is a whole, non-negative, safe number: exact pricing
// refuses anything else, so a buggy report counts as not reported and the gateway's own count stands in.
export function reportedTokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
