import { RememberedRevisions } from './remembered-revisions';

describe('RememberedRevisions', () => {
  it('remembers request and idempotency-key streams only', () => {
    const revisions = new RememberedRevisions();
    revisions.committed('request-a', 2);
    revisions.committed('idempotency-org-a-00ff', 1);
    revisions.committed('budget-org-a', 7);
    expect([revisions.get('request-a'), revisions.get('idempotency-org-a-00ff'), revisions.get('budget-org-a')]).toEqual([2, 1, undefined]);
  });

  it('keeps at most its capacity: a new stream past it starts afresh', () => {
    const revisions = new RememberedRevisions(2);
    revisions.committed('request-a', 0);
    revisions.committed('request-b', 0);
    revisions.committed('request-a', 1);
    expect([revisions.get('request-a'), revisions.size]).toEqual([1, 2]);
    revisions.committed('request-c', 0);
    expect([revisions.get('request-a'), revisions.get('request-b'), revisions.get('request-c'), revisions.size]).toEqual([undefined, undefined, 0, 1]);
  });

  it('forgets a stream on demand', () => {
    const revisions = new RememberedRevisions();
    revisions.committed('request-a', 3);
    revisions.forget('request-a');
    expect(revisions.get('request-a')).toBeUndefined();
  });
});
