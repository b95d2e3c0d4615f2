import { decodeAppends, decodeReplies, encodeAppends, encodeReplies, type AppendReply, type AppendRequest } from './append-protocol';

const event = (id: string) => ({ id, type: 'CostPriced', data: `{"requestId":"${id}","note":"a \\"quoted\\" ✓"}`, metadata: '{"schemaVersion":1}' });

describe('append worker messages', () => {
  const requests: AppendRequest[] = [
    { kind: 'append', requestId: 1, streamId: 'request-a', events: [event('e1'), event('e2')], expectedRevision: 'any' },
    { kind: 'append', requestId: 2, streamId: 'request-b', events: [event('e3')], expectedRevision: 'no_stream' },
    { kind: 'append', requestId: 3, streamId: 'request-c', events: [event('e4'), event('e5'), event('e6')], expectedRevision: 'stream_exists' },
    { kind: 'append', requestId: 4, streamId: 'request-d', events: [event('e7')], expectedRevision: 0 },
    { kind: 'append', requestId: 5, streamId: 'request-e', events: [event('e8')], expectedRevision: 41 },
  ];

  it('carries appends as one flat array of strings and numbers, and back unchanged', () => {
    const message = encodeAppends(requests);
    expect(message.kind).toBe('appends');
    expect(message.appends.every((value) => typeof value === 'string' || typeof value === 'number')).toBe(true);
    expect(message.appends).toHaveLength(5 * 4 + 8 * 4);
    expect(decodeAppends(message)).toEqual(requests);
  });

  it('carries an empty tick as an empty array', () => {
    expect(decodeAppends(encodeAppends([]))).toEqual([]);
  });

  it('carries successes and both kinds of failure back unchanged, with the commit time and batch size', () => {
    const replies: AppendReply[] = [
      { requestId: 7, outcome: { ok: true, result: { nextExpectedRevision: 1, position: '1042' }, allNew: true } },
      { requestId: 8, outcome: { ok: true, result: { nextExpectedRevision: 0, position: '17' }, allNew: false } },
      { requestId: 9, outcome: { ok: false, failure: { kind: 'wrong_expected_revision', streamId: 'request-b', expected: 'no_stream', actual: 3 } } },
      { requestId: 10, outcome: { ok: false, failure: { kind: 'failure', message: 'commit failed: SQLITE_FULL' } } },
    ];
    const message = encodeReplies(replies, '2026-11-22T14:00:00.000Z');
    expect(message).toMatchObject({ kind: 'appended', batchSize: 4, recordedAt: '2026-11-22T14:00:00.000Z' });
    expect(message.replies.every((value) => typeof value === 'string' || typeof value === 'number')).toBe(true);
    expect(decodeReplies(message)).toEqual(replies);
  });
});
