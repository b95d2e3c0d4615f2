import { mixSchedule, soakShares } from '../../bench/soak/mix';

const countOf = (kinds: string[]) => kinds.reduce((counts, kind) => counts.set(kind, (counts.get(kind) ?? 0) + 1), new Map<string, number>());

describe('mixSchedule', () => {
  it('gives every kind its share in every prefix of the run, within one request', () => {
    const shares = soakShares(0.16, 0.01);
    const kindOf = mixSchedule(shares);
    const kinds: string[] = [];
    for (let i = 0; i < 3000; i++) {
      kinds.push(kindOf(i));
      const counts = countOf(kinds);
      for (const { kind, share } of shares) expect(Math.abs((counts.get(kind) ?? 0) - kinds.length * share)).toBeLessThanOrEqual(1);
    }
  });

  it('sends the issue\'s mix at 300 req/s: 48 speech and 3 transcriptions a second, the rest chat half streamed', () => {
    const kindOf = mixSchedule(soakShares(0.16, 0.01));
    const firstSecond = countOf(Array.from({ length: 300 }, (_, i) => kindOf(i)));
    expect(firstSecond.get('speech')).toBe(48);
    expect(firstSecond.get('transcription')).toBe(3);
    expect(firstSecond.get('chat')! + firstSecond.get('chat stream')!).toBe(249);
    expect(Math.abs(firstSecond.get('chat')! - firstSecond.get('chat stream')!)).toBeLessThanOrEqual(1);
  });

  it('is the same schedule on every run and for an index asked again', () => {
    const a = mixSchedule(soakShares(0.16, 0.01));
    const b = mixSchedule(soakShares(0.16, 0.01));
    const first = Array.from({ length: 500 }, (_, i) => a(i));
    expect(Array.from({ length: 500 }, (_, i) => b(i))).toEqual(first);
    expect(a(17)).toBe(first[17]);
  });

  it('spreads a rare kind out instead of bunching it', () => {
    const kindOf = mixSchedule(soakShares(0.16, 0.01));
    const transcriptions = Array.from({ length: 1000 }, (_, i) => i).filter((i) => kindOf(i) === 'transcription');
    expect(transcriptions).toHaveLength(10);
    const gaps = transcriptions.slice(1).map((at, i) => at - transcriptions[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(99);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(101);
  });

  it.each([
    [[], 'at least one kind'],
    [[{ kind: 'a', share: 0.5 }, { kind: 'b', share: 0.4 }], 'add up to 1'],
    [[{ kind: 'a', share: 0 }, { kind: 'b', share: 1 }], 'share of a'],
    [[{ kind: 'a', share: 1.5 }, { kind: 'b', share: -0.5 }], 'share of a'],
  ])('refuses shares %j', (shares, message) => {
    expect(() => mixSchedule(shares)).toThrow(message);
  });

  it('refuses a negative or fractional index', () => {
    const kindOf = mixSchedule(soakShares(0.16, 0.01));
    expect(() => kindOf(-1)).toThrow('whole number');
    expect(() => kindOf(1.5)).toThrow('whole number');
  });

  it('refuses speech and transcription shares that leave no chat', () => {
    expect(() => soakShares(0.6, 0.4)).toThrow('no room for chat');
    const [chat, stream] = soakShares(0.5, 0.49);
    expect(chat.share + stream.share).toBeCloseTo(0.01, 12);
  });
});
