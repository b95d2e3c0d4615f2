import { requestStreamId } from '../event-ids';
import { leaseStreamId } from '../../rate-limits/rate-limit-ledger.rules';
import { WRITE_PROBE_STREAM } from '../write-tracking-event-store';
import { budgetStreamId } from '../../budgets/budget.events';
import { apiKeyStream, organizationStream } from '../../keys/domain/key-events';
import { GATEWAY_STREAM_PREFIXES, STORE_IDENTITY_STREAM } from './gateway-streams';

describe('the streams EventStoreDB $all reads are filtered to', () => {
  it("cover every stream the gateway writes, and no database stream", () => {
    const written = [requestStreamId('0190a0a0-0000-7000-8000-000000000000'), leaseStreamId('org-1'), `model-status-gpt-4o`, WRITE_PROBE_STREAM, STORE_IDENTITY_STREAM,
      budgetStreamId('key', 'key_1'), budgetStreamId('organization', 'org-1'), apiKeyStream('key_1'), organizationStream('org-1')];
    for (const stream of written) expect(GATEWAY_STREAM_PREFIXES.some((prefix) => stream.startsWith(prefix))).toBe(true);
    expect(GATEWAY_STREAM_PREFIXES.some((prefix) => prefix.startsWith('$'))).toBe(false);
  });
});
