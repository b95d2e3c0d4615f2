import { missingPathParameters, multipartSchema, queryParameters } from './request-schemas';

class UploadDto {}

describe('queryParameters', () => {
  it('makes one parameter per property, required as the DTO says, without null', () => {
    const dto = { type: 'object' as const, properties: { model: { type: 'string' as const }, limit: { type: 'integer' as const, nullable: true } }, required: ['model'] };
    expect(queryParameters(dto)).toEqual([
      { name: 'model', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } },
    ]);
  });
});

describe('missingPathParameters', () => {
  it('declares template parameters the scan did not', () => {
    const declared = [{ name: 'a', in: 'path' as const, required: true, schema: { type: 'string' as const } }];
    expect(missingPathParameters('/v1/{a}/{b}', declared)).toEqual([{ name: 'b', in: 'path', required: true, schema: { type: 'string' } }]);
  });
});

describe('multipartSchema', () => {
  it('describes file parts as bytes and renames fields to their wire names', () => {
    const dto = {
      type: 'object' as const,
      properties: { file: { not: { type: 'null' as const } }, scans: {}, granularity: { type: 'array' as const, nullable: true } },
      required: ['file', 'granularity'],
    };
    const body = { dto: UploadDto, files: { file: 'one' as const, scans: 'many' as const }, wireNames: { granularity: 'granularity[]' } };
    const bytes = { type: 'string', contentMediaType: 'application/octet-stream' };
    expect(multipartSchema(dto, body)).toEqual({
      type: 'object',
      properties: { file: bytes, scans: { type: 'array', items: bytes }, 'granularity[]': { type: 'array' } },
      required: ['file', 'granularity[]'],
    });
  });
});

describe('multipartSchema variant rules', () => {
  it('keeps the DTO\'s if/then rules, their fields without null', () => {
    const rule = { if: { properties: { labels: { const: true } }, required: ['labels'] }, then: { properties: { speakers: { type: 'integer' as const, minimum: 1, nullable: true } } } };
    const dto = { type: 'object' as const, properties: { labels: { type: 'boolean' as const }, speakers: {} }, allOf: [rule] };
    expect(multipartSchema(dto, { dto: UploadDto, files: {} }).allOf).toEqual([{ ...rule, then: { properties: { speakers: { type: 'integer', minimum: 1 } } } }]);
  });
});
