import { RequestStreamRevisions } from './request-stream-revisions';

describe('RequestStreamRevisions', () => {
  it('remembers request streams only', () => {
    const revisions = new RequestStreamRevisions();
    revisions.committed('request-a', 2);
    revisions.committed('budget-org-a', 7);
    expect([revisions.get('request-a'), revisions.get('budget-org-a')]).toEqual([2, undefined]);
  });

  it('keeps at most its capacity: a new stream past it starts afresh', () => {
    const revisions = new RequestStreamRevisions(2);
    revisions.committed('request-a', 0);
    revisions.committed('request-b', 0);
    revisions.committed('request-a', 1);
    expect([revisions.get('request-a'), revisions.size]).toEqual([1, 2]);
    revisions.committed('request-c', 0);
    expect([revisions.get('request-a'), revisions.get('request-b'), revisions.get('request-c'), revisions.size]).toEqual([undefined, undefined, 0, 1]);
  });

  it('forgets a stream on demand', () => {
    const revisions = new RequestStreamRevisions();
    revisions.committed('request-a', 3);
    revisions.forget('request-a');
    expect(revisions.get('request-a')).toBeUndefined();
  });
});
