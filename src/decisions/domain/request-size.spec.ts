import { assertDecisionRequestSize, MAX_DECISION_REQUEST_BYTES } from './request-size';

describe('assertDecisionRequestSize', () => {
  it('allows a request up to the cap and refuses one byte more with 413', () => {
    expect(() => assertDecisionRequestSize(String(MAX_DECISION_REQUEST_BYTES), {})).not.toThrow();
    expect(() => assertDecisionRequestSize(String(MAX_DECISION_REQUEST_BYTES + 1), {})).toThrow(
      expect.objectContaining({ status: 413, code: 'request_too_large' }),
    );
  });

  it('measures the parsed body when no Content-Length was sent', () => {
    expect(() => assertDecisionRequestSize(undefined, { input: 'x'.repeat(MAX_DECISION_REQUEST_BYTES) })).toThrow(
      expect.objectContaining({ status: 413 }),
    );
    expect(() => assertDecisionRequestSize(undefined, { input: 'small' })).not.toThrow();
  });
});
