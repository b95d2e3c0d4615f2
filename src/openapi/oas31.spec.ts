import { convertNullable } from './oas31';

describe('convertNullable', () => {
  it('turns a nullable plain type into a type array', () => {
    expect(convertNullable({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
  });

  it('adds null to an enumeration, or null would still be refused', () => {
    expect(convertNullable({ type: 'string', enum: ['mp3', 'wav'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['mp3', 'wav', null] });
  });

  it('wraps a reference in oneOf with null', () => {
    expect(convertNullable({ $ref: '#/components/schemas/A', type: 'object', nullable: true })).toEqual({
      oneOf: [{ $ref: '#/components/schemas/A', type: 'object' }, { type: 'null' }],
    });
  });

  it('leaves a schema that already accepts null as it is, minus the keyword', () => {
    expect(convertNullable({ oneOf: [{ type: 'string' }, { type: 'null' }], nullable: true })).toEqual({ oneOf: [{ type: 'string' }, { type: 'null' }] });
    expect(convertNullable({ nullable: true })).toEqual({});
  });

  it('drops nullable: false', () => {
    expect(convertNullable({ type: 'integer', nullable: false })).toEqual({ type: 'integer' });
  });

  it('converts at any depth and keeps a property that happens to be named nullable', () => {
    const document = { paths: { '/x': { get: { parameters: [{ schema: { type: 'integer', nullable: true } }] } } }, properties: { nullable: { type: 'boolean' } } };
    expect(convertNullable(document)).toEqual({
      paths: { '/x': { get: { parameters: [{ schema: { type: ['integer', 'null'] } }] } } },
      properties: { nullable: { type: 'boolean' } },
    });
  });
});
