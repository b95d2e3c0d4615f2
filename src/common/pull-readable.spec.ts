import { pullReadable } from './pull-readable';

async function drain(readable: NodeJS.ReadableStream): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of readable) out.push(Buffer.from(chunk as Buffer).toString('utf8'));
  return out;
}

describe('pullReadable', () => {
  it('hands over every piece in order, strings and buffers alike, then ends', async () => {
    async function* pieces(): AsyncGenerator<string | Buffer> {
      yield 'data: one\n\n';
      yield Buffer.from('data: two\n\n');
      yield 'data: [DONE]\n\n';
    }
    expect(await drain(pullReadable(pieces(), { highWaterMark: 1 }))).toEqual(['data: one\n\n', 'data: two\n\n', 'data: [DONE]\n\n']);
  });

  it('asks the generator for a piece only when the consumer reads', async () => {
    const asked: number[] = [];
    async function* counting(): AsyncGenerator<string> {
      for (let index = 0; index < 100; index++) {
        asked.push(index);
        yield `piece ${index}`;
      }
    }
    const readable = pullReadable(counting(), { highWaterMark: 1 });
    const iterator = readable[Symbol.asyncIterator]();
    await iterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked.length).toBeLessThanOrEqual(3);
    readable.destroy();
  });

  it('fails the stream with the error of the generator', async () => {
    async function* breaking(): AsyncGenerator<string> {
      yield 'first';
      throw new Error('upstream broke');
    }
    const received: string[] = [];
    const readable = pullReadable(breaking(), { highWaterMark: 1 });
    await expect(
      (async () => {
        for await (const chunk of readable) received.push(String(chunk));
      })(),
    ).rejects.toThrow('upstream broke');
    expect(received).toEqual(['first']);
  });

  it.each([
    ['piece by piece', { highWaterMark: 1 }],
    ['coalescing', { highWaterMark: 1, coalesce: true }],
  ])('returns the generator when the stream is destroyed (%s), so its finally block runs once what it awaits settles', async (_mode, options) => {
    let finished = false;
    let hangUp: () => void = () => undefined;
    const hungUp = new Promise<void>((resolve) => (hangUp = resolve));
    async function* waiting(): AsyncGenerator<string> {
      try {
        yield 'first';
        await hungUp;
        yield 'never read';
      } finally {
        finished = true;
      }
    }
    const readable = pullReadable(waiting(), options);
    await readable[Symbol.asyncIterator]().next();
    const closed = new Promise((resolve) => readable.once('close', resolve));
    readable.destroy();
    hangUp();
    await closed;
    expect(finished).toBe(true);
  });

  it('reports a failure of the generator while it is being returned, when nothing else failed', async () => {
    async function* failingCleanup(): AsyncGenerator<string> {
      try {
        yield 'first';
      } finally {
        throw new Error('cleanup failed');
      }
    }
    const readable = pullReadable(failingCleanup(), { highWaterMark: 1 });
    await readable[Symbol.asyncIterator]().next().catch(() => undefined);
    const failure = new Promise<Error>((resolve) => readable.once('error', resolve));
    readable.destroy();
    expect((await failure).message).toBe('cleanup failed');
  });
});

describe('pullReadable, coalescing one turn\'s pieces', () => {
  const coalescing = { highWaterMark: 1, coalesce: true };

  it('hands over the first piece at once, then the pieces a generator gives within one turn as one, in order', async () => {
    async function* bursts(): AsyncGenerator<string | Buffer> {
      yield 'data: zero\n\n';
      yield 'data: one\n\n';
      yield Buffer.from('data: two\n\n');
      await new Promise((resolve) => setTimeout(resolve, 5));
      yield 'data: three\n\n';
      yield 'data: [DONE]\n\n';
    }
    expect(await drain(pullReadable(bursts(), coalescing))).toEqual(['data: zero\n\n', 'data: one\n\ndata: two\n\n', 'data: three\n\ndata: [DONE]\n\n']);
  });

  it('keeps every byte of a long stream in order, strings joined and mixed pieces as bytes', async () => {
    const pieces = Array.from({ length: 500 }, (_, index) => (index % 3 === 0 ? Buffer.from(`b${index}é;`) : `s${index}é;`));
    async function* all(): AsyncGenerator<string | Buffer> {
      for (const [index, piece] of pieces.entries()) {
        if (index % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
        yield piece;
      }
    }
    const received = await drain(pullReadable(all(), coalescing));
    expect(received.join('')).toBe(pieces.map((piece) => piece.toString()).join(''));
    expect(received.length).toBeLessThan(pieces.length);
  });

  it('hands over at once what passes 64 KiB within a turn', async () => {
    const big = 'x'.repeat(40 * 1024);
    async function* large(): AsyncGenerator<string> {
      yield 'first';
      yield big;
      yield big;
      yield big;
    }
    const received = await drain(pullReadable(large(), coalescing));
    expect(received.map((piece) => piece.length)).toEqual([5, 80 * 1024, 40 * 1024]);
  });

  it('reads ahead of a consumer that stopped reading by at most one piece past a turn\'s hand-over', async () => {
    const asked: number[] = [];
    async function* counting(): AsyncGenerator<string> {
      for (let index = 0; index < 100; index++) {
        asked.push(index);
        await new Promise((resolve) => setImmediate(resolve));
        yield `piece ${index}`;
      }
    }
    const readable = pullReadable(counting(), coalescing);
    const iterator = readable[Symbol.asyncIterator]();
    await iterator.next();
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(asked.length).toBeLessThanOrEqual(4);
    readable.destroy();
  });

  it('hands over what the generator gave before it failed, then fails the stream', async () => {
    async function* breaking(): AsyncGenerator<string> {
      yield 'first';
      yield 'second';
      throw new Error('upstream broke');
    }
    const received: string[] = [];
    const readable = pullReadable(breaking(), coalescing);
    await expect(
      (async () => {
        for await (const chunk of readable) received.push(String(chunk));
      })(),
    ).rejects.toThrow('upstream broke');
    expect(received.join('')).toBe('firstsecond');
  });
});
