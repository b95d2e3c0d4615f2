import { RequestMethod } from '@nestjs/common';
import { documentOperation, errorStatuses } from './document-operation';
import type { RouteFacts } from './route-facts';

class BodyDto {}
class QueryDto {}

const route = (facts: Partial<RouteFacts> = {}): RouteFacts => ({ operationId: 'C_h', requestMethod: RequestMethod.POST, keyed: false, ...facts });

describe('errorStatuses', () => {
  it('gives keyed routes the authentication, payment, membership, rate-limit and outage statuses', () => {
    expect(errorStatuses(route({ keyed: true }))).toEqual([401, 402, 403, 429, 503]);
  });

  it('gives a validated body the malformed, too-large, media-type and schema statuses', () => {
    expect(errorStatuses(route({ body: BodyDto }))).toEqual([400, 413, 415, 422]);
  });

  it('gives a validated query the schema status, plus the spec\'s own extras', () => {
    expect(errorStatuses(route({ query: QueryDto }), { errors: [404, 400] })).toEqual([400, 404, 422]);
  });

  it('gives an open route without input nothing', () => {
    expect(errorStatuses(route())).toEqual([]);
  });
});

describe('documentOperation', () => {
  const scanned = { operationId: 'C_h', parameters: [], responses: {} };
  const spec = { summary: 'Do it', tag: 'Things', responses: { 200: { description: 'done' } }, errors: [404] };

  it('requires the bearer key exactly when the route is keyed', () => {
    expect(documentOperation('/x', scanned, route({ keyed: true }), spec, {}).operation.security).toEqual([{ bearer: [] }]);
    expect(documentOperation('/x', scanned, route(), spec, {}).operation.security).toBeUndefined();
  });

  it('references the shared error responses and adds the rate-limit headers to a keyed success', () => {
    const { responses } = documentOperation('/x', scanned, route({ keyed: true }), spec, {}).operation;
    expect(responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(Object.keys((responses['200'] as { headers: object }).headers)).toEqual(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']);
  });

  it('documents a multipart body from its DTO under the DTO\'s name', () => {
    const multipart = { dto: BodyDto, files: { upload: 'one' as const } };
    const documented = documentOperation('/x', scanned, route({ multipart }), spec, { BodyDto: { type: 'object', properties: { upload: {} } } });
    expect(documented.operation.requestBody).toEqual({ required: true, content: { 'multipart/form-data': { schema: { $ref: '#/components/schemas/BodyDto' } } } });
    expect(documented.schemas.BodyDto.properties).toEqual({ upload: { type: 'string', contentMediaType: 'application/octet-stream' } });
  });

  it('marks an operation missing from operations.ts instead of inventing its responses', () => {
    expect(documentOperation('/x', scanned, route(), undefined, {}).operation.responses['200']).toMatchObject({ description: 'Not documented in operations.ts.' });
  });
});
