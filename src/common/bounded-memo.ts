// Results of a pure function kept by key, for hot paths whose inputs repeat (a model's prices, an
// organization's cache salt). Bounded because some keys come from callers; when full it starts over,
// which costs one recomputation per key and no bookkeeping per hit.
export function boundedMemo<V>(compute: (key: string) => V, capacity: number): (key: string) => V {
  const results = new Map<string, V>();
  return (key) => {
    let result = results.get(key);
    if (result === undefined) {
      if (results.size >= capacity) results.clear();
      result = compute(key);
      results.set(key, result);
    }
    return result;
  };
}
