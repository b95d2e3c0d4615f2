// Shallow copies for per-request paths. In Node 20's V8, adding a property that the source lacks to an
// object made by spread (`{ ...source, added }`, or `{ ...source }` then `copy.added = ...`) creates a
// new hidden class every time; `Object.assign` onto a fresh `{}` reuses one (docs/benchmarks.md,
// finding 18). Spread stays fine where no property is added.

/** `{ ...source, ...additions }` on shared hidden classes. */
export function copyWith<T extends object, U extends object = object>(source: T, additions?: U): T & U {
  return Object.assign({}, source, additions);
}
