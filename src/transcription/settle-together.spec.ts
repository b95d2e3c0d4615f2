import { settleTogether } from './settle-together';

/** Resolves with `value` after `ms`, or rejects with the signal's abort when it fires first. */
function work<T>(signal: AbortSignal, ms: number, value: T): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(value), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    });
  });
}

describe('settleTogether', () => {
  it('returns both results in order', async () => {
    const result = await settleTogether(new AbortController().signal, (signal) => [work(signal, 5, 'a'), work(signal, 1, 2)]);
    expect(result).toEqual(['a', 2]);
  });

  it('reports the first failure and cancels the other call', async () => {
    let cancelled = false;
    const run = settleTogether(new AbortController().signal, (signal) => {
      signal.addEventListener('abort', () => (cancelled = true));
      return [work(signal, 1000, 'slow'), Promise.reject(new Error('diarizer down'))];
    });
    await expect(run).rejects.toThrow('diarizer down');
    expect(cancelled).toBe(true);
  });

  it('passes the caller abort on to both calls', async () => {
    const client = new AbortController();
    const run = settleTogether(client.signal, (signal) => [work(signal, 1000, 1), work(signal, 1000, 2)]);
    client.abort();
    await expect(run).rejects.toThrow('cancelled');
  });
});
