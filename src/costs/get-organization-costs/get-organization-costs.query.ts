import type { RawCostQuery } from '../domain/cost-query';

export class GetOrganizationCostsQuery {
  constructor(
    readonly organizationId: string,
    readonly raw: RawCostQuery,
    /** `Accept: text/csv` asked for the CSV rendering (an extension, docs/costs.md). */
    readonly asCsv = false,
  ) {}
}

/** The CSV rendering of a cost page; the cursor of the next page travels in a response header. */
export interface CostCsvPage {
  csv: string;
  nextPage: string | null;
}
