// Bounded label values: every label of the gateway's metrics comes from a fixed or configured set,
// so a client can never grow the number of series (no raw paths, ids or free text).

/** The route label of a request no route matched (404s, probes of random paths). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The organization label of an organization that is not in the configuration. */
export const OTHER_ORGANIZATION = 'other';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/** Status codes as label text, built once (the request path never formats a number). */
const STATUS_TEXT: string[] = Array.from({ length: 600 }, (_, status) => String(status));

export function statusLabel(status: number): string {
  return STATUS_TEXT[status] ?? 'other';
}

/** Two-level cache of labelled children, so a request looks its series up instead of building it. */
export class SeriesCache<T> {
  private readonly outer = new Map<string, Map<string, T>>();

  constructor(private readonly create: (first: string, second: string) => T) {}

  get(first: string, second: string): T {
    let inner = this.outer.get(first);
    if (inner === undefined) {
      inner = new Map();
      this.outer.set(first, inner);
    }
    let series = inner.get(second);
    if (series === undefined) {
      series = this.create(first, second);
      inner.set(second, series);
    }
    return series;
  }
}
