import type { RecordedEvent } from '../../event-store/event-store.port';
import { costPriced, lineItem } from '../../../test/support/projection-test-events';
import { EventContractError } from '../../projections/parking/event-contract-error';
import { foldDimensionPage, UNKNOWN_KEY } from './cost-dimension.fold';

let position = 0;
const recorded = (type: string, data: unknown): RecordedEvent => ({ id: `e${++position}`, type, data, metadata: {}, position: String(position).padStart(8, '0') }) as unknown as RecordedEvent;
const measured = (requestId: string, keyId: string) => recorded('UsageMeasured', { requestId, keyId, organizationId: 'org-a' });
const priced = (requestId: string, micros: number, occurredAt = '2025-03-10T12:00:00Z', model = 'gpt-mini') =>
  recorded('CostPriced', { ...costPriced(requestId, 'org-a', occurredAt, [lineItem('x', micros, '1')]), model });

describe('foldDimensionPage', () => {
  it('adds each billed cost once per model and once per key, summed per organization and day', () => {
    const page = foldDimensionPage(
      [measured('r1', 'k1'), priced('r1', 10), measured('r2', 'k1'), priced('r2', 5, '2025-03-10T23:59:59Z', 'aria'), measured('r3', 'k2'), priced('r3', 1, '2025-03-11T00:00:00Z')],
      () => undefined,
    );
    const summary = page.deltas.map((d) => [d.day, d.dimension, d.value, d.amountUsdMicros, d.pricedRequests]);
    expect(summary).toEqual([
      ['2025-03-10', 'model', 'gpt-mini', 10n, 1],
      ['2025-03-10', 'api_key_id', 'k1', 15n, 2],
      ['2025-03-10', 'model', 'aria', 5n, 1],
      ['2025-03-11', 'model', 'gpt-mini', 1n, 1],
      ['2025-03-11', 'api_key_id', 'k2', 1n, 1],
    ]);
    expect([page.pendingKeys.size, page.settledRequests]).toEqual([0, []]);
  });

  it('takes the key of a request measured in an earlier page and marks it settled; keeps an unpriced one pending', () => {
    const page = foldDimensionPage([priced('r1', 4), measured('r9', 'k9')], (requestId) => (requestId === 'r1' ? 'k-earlier' : undefined));
    expect(page.deltas.find((d) => d.dimension === 'api_key_id')?.value).toBe('k-earlier');
    expect(page.settledRequests).toEqual(['r1']);
    expect([...page.pendingKeys]).toEqual([['r9', 'k9']]);
  });

  it('files a cost with no recorded key under the unknown key, and a not-charged request at 0', () => {
    const notCharged = recorded('CostPriced', { ...costPriced('r2', 'org-a', '2025-03-10T00:00:00Z', [lineItem('x', 3, '1')]), costUsdMicros: null });
    const page = foldDimensionPage([priced('r1', 4), notCharged], () => undefined);
    expect(page.deltas.filter((d) => d.dimension === 'api_key_id').map((d) => [d.value, d.amountUsdMicros, d.pricedRequests])).toEqual([[UNKNOWN_KEY, 4n, 2]]);
  });

  it('refuses a CostPriced it cannot fold exactly', () => {
    expect(() => foldDimensionPage([recorded('CostPriced', { requestId: 'r', organizationId: 'o', lineItems: [], occurredAt: 'x', costUsdMicros: 1 })], () => undefined)).toThrow(EventContractError);
  });
});
