// The gateway's own answer: GET /v1/organization/costs daily buckets for one organization, in USD.
import { BigDecimal } from '../../common/big-decimal';

export interface GatewayCostQuery {
  baseUrl: string;
  apiKey: string;
  /** Sent as X-Organization-Id; null = the key's default organization. */
  organizationId: string | null;
  fromDay: string;
  /** Exclusive; null = up to now. */
  untilDay: string | null;
}

interface CostPage {
  data: { start_time: number; results: { amount: { value: number } }[] }[];
  has_more: boolean;
  next_page: string | null;
}

const MAX_BUCKETS_PER_PAGE = 31;

const dayToUnixSeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;
const unixSecondsToDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

export function costsUrl(query: GatewayCostQuery, page: string | null): string {
  const url = new URL(`${query.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/organization/costs`);
  url.searchParams.set('start_time', String(dayToUnixSeconds(query.fromDay)));
  if (query.untilDay) url.searchParams.set('end_time', String(dayToUnixSeconds(query.untilDay)));
  url.searchParams.set('bucket_width', '1d');
  url.searchParams.set('limit', String(MAX_BUCKETS_PER_PAGE));
  if (page) url.searchParams.set('page', page);
  return url.toString();
}

async function fetchPage(query: GatewayCostQuery, page: string | null): Promise<CostPage> {
  const headers: Record<string, string> = { authorization: `Bearer ${query.apiKey}`, accept: 'application/json' };
  if (query.organizationId) headers['x-organization-id'] = query.organizationId;
  const response = await fetch(costsUrl(query, page), { headers });
  if (!response.ok) throw new Error(`GET /v1/organization/costs answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as CostPage;
}

/** USD per UTC day (days without cost may be absent). `value` is a JSON number; BigDecimal keeps it as printed. */
export async function fetchGatewayDailyUsd(query: GatewayCostQuery): Promise<Map<string, BigDecimal>> {
  const byDay = new Map<string, BigDecimal>();
  let page: string | null = null;
  do {
    const body = await fetchPage(query, page);
    for (const bucket of body.data) {
      const day = unixSecondsToDay(bucket.start_time);
      const dayTotal = bucket.results.reduce((sum, result) => sum.plus(BigDecimal.parseScientific(String(result.amount.value))), BigDecimal.ZERO);
      byDay.set(day, (byDay.get(day) ?? BigDecimal.ZERO).plus(dayTotal));
    }
    page = body.has_more ? body.next_page : null;
  } while (page);
  return byDay;
}
