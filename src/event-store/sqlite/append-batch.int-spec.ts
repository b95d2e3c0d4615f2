import Database from 'better-sqlite3';
import { createBatchAppender, type BatchAppender } from './append-batch';
import type { AppendRequest } from './append-protocol';
import { configureWriter } from './sqlite-schema';

const AT = '2026-11-22T00:00:00.000Z';
let requestId = 0;

function request(streamId: string, ids: string[], expectedRevision: AppendRequest['expectedRevision'] = 'any'): AppendRequest {
  const events = ids.map((id) => ({ id, type: 'E', data: `{"id":"${id}"}`, metadata: '{}' }));
  return { kind: 'append', requestId: ++requestId, streamId, events, expectedRevision };
}

describe('createBatchAppender (one commit per batch)', () => {
  let db: Database.Database;
  let append: BatchAppender;
  const rows = () => db.prepare('SELECT position, event_id AS id, stream_id AS stream, revision FROM events ORDER BY position').all();

  beforeEach(() => {
    db = new Database(':memory:');
    configureWriter(db);
    append = createBatchAppender(db);
  });
  afterEach(() => db.close());

  it('appends new events to new streams at consecutive positions and revisions', () => {
    const outcomes = append([request('a', ['a1', 'a2']), request('b', ['b1'], 'no_stream')], AT);
    expect(outcomes).toEqual([
      { ok: true, result: { nextExpectedRevision: 1, position: '2' }, allNew: true },
      { ok: true, result: { nextExpectedRevision: 0, position: '3' }, allNew: true },
    ]);
    expect(rows()).toEqual([
      { position: 1, id: 'a1', stream: 'a', revision: 0 },
      { position: 2, id: 'a2', stream: 'a', revision: 1 },
      { position: 3, id: 'b1', stream: 'b', revision: 0 },
    ]);
  });

  it('commits the rest of a batch once when one request expects another revision, and reports that one', () => {
    append([request('a', ['a1'])], AT);
    const outcomes = append([request('b', ['b1']), request('a', ['a2'], 5), request('c', ['c1'])], AT);
    expect(outcomes[1]).toEqual({ ok: false, failure: { kind: 'wrong_expected_revision', streamId: 'a', expected: 5, actual: 0 } });
    expect(outcomes[0]).toEqual({ ok: true, result: { nextExpectedRevision: 0, position: '2' }, allNew: true });
    expect(outcomes[2]).toEqual({ ok: true, result: { nextExpectedRevision: 0, position: '3' }, allNew: true });
    expect(rows().map((r) => (r as { id: string }).id)).toEqual(['a1', 'b1', 'c1']);
  });

  it('accepts a retried append whose events are all stored, even with a revision now stale, writing nothing', () => {
    append([request('a', ['a1'], 'no_stream')], AT);
    const outcomes = append([request('a', ['a1'], 'no_stream'), request('b', ['b1'])], AT);
    expect(outcomes).toEqual([
      { ok: true, result: { nextExpectedRevision: 0, position: '1' }, allNew: false },
      { ok: true, result: { nextExpectedRevision: 0, position: '2' }, allNew: true },
    ]);
    expect(rows()).toHaveLength(2);
  });

  it('appends only the new events of a partly stored append', () => {
    append([request('a', ['a1'])], AT);
    expect(append([request('a', ['a1', 'a2'])], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 1, position: '2' }, allNew: false }]);
    expect(rows().map((r) => (r as { id: string }).id)).toEqual(['a1', 'a2']);
  });

  it('stores an id repeated within one append once', () => {
    expect(append([request('a', ['a1', 'a1'])], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 0, position: '1' }, allNew: false }]);
    expect(rows()).toHaveLength(1);
  });

  it('lets two requests of one batch append to the same stream in turn', () => {
    const outcomes = append([request('a', ['a1'], 'no_stream'), request('a', ['a2'], 0)], AT);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(rows().map((r) => (r as { revision: number }).revision)).toEqual([0, 1]);
  });

  describe.each([
    ['a request stream', 'request-0196a3c4-0000-7000-8000-000000000001'],
    ['an idempotency key stream', `idempotency-org-a-${'0f'.repeat(32)}`],
  ])('remembered revisions of %s (no MAX(revision) lookup)', (_kind, stream) => {
    it('appends a request stream\'s later events at the right revisions, batch after batch', () => {
      append([request(stream, ['adm'], 'no_stream')], AT);
      expect(append([request(stream, ['use', 'cost'])], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 2, position: '3' }, allNew: true }]);
      expect(append([request(stream, ['more'], 2)], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 3, position: '4' }, allNew: true }]);
      expect(rows().map((r) => (r as { revision: number }).revision)).toEqual([0, 1, 2, 3]);
    });

    it('stays right when another connection appended to the stream meanwhile (the remembered revision is stale)', () => {
      const other = createBatchAppender(db);
      append([request(stream, ['adm'], 'no_stream')], AT);
      other([request(stream, ['elsewhere'])], AT);
      // Remembered: revision 0; stored: 1. 'any' goes to revision 2, an exact expectation of 1 succeeds, of 0 fails.
      expect(append([request(stream, ['use'])], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 2, position: '3' }, allNew: true }]);
      other([request(stream, ['elsewhere-2'])], AT);
      expect(append([request(stream, ['late'], 0)], AT)[0]).toEqual({ ok: false, failure: { kind: 'wrong_expected_revision', streamId: stream, expected: 0, actual: 3 } });
      expect(append([request(stream, ['exact'], 3)], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 4, position: '5' }, allNew: true }]);
      expect(rows().map((r) => [(r as { id: string }).id, (r as { revision: number }).revision])).toEqual([['adm', 0], ['elsewhere', 1], ['use', 2], ['elsewhere-2', 3], ['exact', 4]]);
    });

    it('refuses no_stream on an existing stream without looking it up, and takes its retry as a no-op', () => {
      append([request(stream, ['adm'], 'no_stream')], AT);
      const fresh = createBatchAppender(db);
      expect(fresh([request(stream, ['again'], 'no_stream')], AT)[0]).toEqual({ ok: false, failure: { kind: 'wrong_expected_revision', streamId: stream, expected: 'no_stream', actual: 0 } });
      expect(fresh([request(stream, ['adm'], 'no_stream')], AT)).toEqual([{ ok: true, result: { nextExpectedRevision: 0, position: '1' }, allNew: false }]);
      expect(rows()).toHaveLength(1);
    });
  });
});
