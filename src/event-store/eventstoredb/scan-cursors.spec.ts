import { ScanCursors } from './scan-cursors';

describe('ScanCursors', () => {
  it('starts from the caller position until a short read has noted a head beyond it', () => {
    const cursors = new ScanCursors();
    expect(cursors.startFor('10/10')).toBe('10/10');
    cursors.record('10/10', null, true, null);
    expect(cursors.wantsHead('10/10')).toBe(true);
    expect(cursors.startFor('10/10')).toBe('10/10');
    cursors.record('10/10', null, true, '90/90');
    expect(cursors.startFor('10/10')).toBe('90/90');
    cursors.record('10/10', null, true, '95/95');
    expect(cursors.startFor('10/10')).toBe('95/95');
  });

  it('moves on with the reader: a page with events leaves the old position behind', () => {
    const cursors = new ScanCursors();
    cursors.record(null, null, true, '50/50');
    expect(cursors.startFor(null)).toBe('50/50');
    cursors.record(null, '60/60', true, '59/59');
    expect(cursors.startFor(null)).toBe(null);
    expect(cursors.startFor('60/60')).toBe('60/60');
    expect(cursors.wantsHead('60/60')).toBe(true);
  });

  it('keeps no cursor from a full page (not at the head) or a head at or before the last event', () => {
    const cursors = new ScanCursors();
    cursors.record('10/10', '20/20', false, '30/30');
    expect(cursors.wantsHead('20/20')).toBe(false);
    expect(cursors.startFor('20/20')).toBe('20/20');
    cursors.record('20/20', null, true, '20/20');
    expect(cursors.startFor('20/20')).toBe('20/20');
  });

  it('is bounded', () => {
    const cursors = new ScanCursors(2);
    for (let i = 1; i <= 3; i++) cursors.record(`${i}/0`, null, true, `${i + 100}/0`);
    expect(cursors.startFor('1/0')).toBe('1/0');
    expect(cursors.startFor('3/0')).toBe('103/0');
  });
});
