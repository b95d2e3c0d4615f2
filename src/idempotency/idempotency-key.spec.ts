import { ApiError } from '../common/api-error';
import { idempotencyStreamId, validIdempotencyKey } from './idempotency-key';

describe('Idempotency-Key header', () => {
  it('accepts 1 to 255 printable ASCII characters', () => {
    expect(validIdempotencyKey('a')).toBe('a');
    expect(validIdempotencyKey(`a ~${'k'.repeat(252)}`)).toHaveLength(255);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'a\tb'],
    ['DEL', 'a\x7fb'],
    ['non-ASCII', 'clé'],
  ])('refuses a key that is %s with 400 invalid_idempotency_key', (_label, key) => {
    expect(() => validIdempotencyKey(key)).toThrow(ApiError);
    try {
      validIdempotencyKey(key);
    } catch (error) {
      expect((error as ApiError).toBody().error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_idempotency_key', param: 'Idempotency-Key' });
      expect((error as ApiError).status).toBe(400);
    }
  });

  it('refuses the header sent twice', () => {
    expect(() => validIdempotencyKey(['a', 'b'])).toThrow(/once/);
  });

  it('lives in a stream per organization named by the hash of the key, never the key', () => {
    const id = idempotencyStreamId('org-a', 'my-secret-key');
    expect(id).toMatch(/^idempotency-org-a-[0-9a-f]{64}$/);
    expect(id).not.toContain('my-secret-key');
    expect(idempotencyStreamId('org-b', 'my-secret-key')).not.toBe(id);
  });
});
