// How deeply a parsed JSON body nests. class-transformer recurses once per level and overflows the
// stack at about 2,500 levels (a 500); bodies are refused far below that, right after parsing.

/**
 * The deepest nesting a request body may have: `{}` is 1, `{"a":[]}` is 2. An OpenAI request with a
 * tool's JSON schema nested 10 levels (OpenAI's own limit for structured outputs, each level being
 * `properties` + the property's schema, optionally through `anyOf`/`items`) stays under 50, so 128
 * leaves room for any legitimate body and stays 20 times below the overflow.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * True when `value` nests deeper than `limit`. Visits containers only down to the limit, so the
 * recursion is bounded; a body's cost is its number of values, not its bytes (a 1 MiB base64
 * string is one value).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return typeof value === 'object' && value !== null && !containersFit(value, limit);
}

/** `container` and everything under it fit in `levels` levels of nesting. */
function containersFit(container: object, levels: number): boolean {
  if (levels === 0) return false;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const item: unknown = container[i];
      if (typeof item === 'object' && item !== null && !containersFit(item, levels - 1)) return false;
    }
    return true;
  }
  for (const key in container) {
    const item: unknown = (container as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && !containersFit(item, levels - 1)) return false;
  }
  return true;
}
