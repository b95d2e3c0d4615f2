import { appendAtRevision, type AppendAtRevision } from './append-at-revision';
import { WrongExpectedRevisionError, type AppendResult, type ExpectedRevision, type NewEvent } from './event-store.port';

/** One stream, with the port's idempotency: an append whose ids are all stored answers their revision. */
class FakeStream {
  readonly ids: string[] = [];
  readonly appends: ExpectedRevision[] = [];
  failWith: Error | null = null;

  async append(_streamId: string, events: NewEvent[], options?: { expectedRevision?: ExpectedRevision }): Promise<AppendResult> {
    const expected = options?.expectedRevision ?? 'any';
    this.appends.push(expected);
    if (this.failWith) throw this.failWith;
    if (events.every((event) => this.ids.includes(event.id))) return this.result(this.ids.indexOf(events[events.length - 1].id));
    const current = this.ids.length - 1;
    if (expected !== 'any' && (expected === 'no_stream' ? current !== -1 : expected !== current)) throw new WrongExpectedRevisionError('s', expected, current < 0 ? 'no_stream' : current);
    this.ids.push(...events.map((event) => event.id));
    return this.result(this.ids.length - 1);
  }

  /** Another writer's append. */
  writeOther(id: string): void {
    this.ids.push(id);
  }

  private result(revision: number): AppendResult {
    return { nextExpectedRevision: revision, position: String(revision) };
  }
}

const event = (id: string): NewEvent => ({ id, type: 'Thing', data: {} });

/** A writer that folds its own appends (a revision it knows) and catches up from the stream. */
function writerOn(stream: FakeStream, ids: () => string[]) {
  const folded: { id: string; revision: number }[] = [];
  let known = -1;
  const catchUps: number[] = [];
  const steps: AppendAtRevision<string> = {
    streamId: 's',
    maxAttempts: 3,
    decide: () => {
      const events = ids().map(event);
      const expectedRevision = known;
      return {
        events,
        expectedRevision,
        appended: () => {
          events.forEach((e, index) => folded.push({ id: e.id, revision: expectedRevision + 1 + index }));
          known = expectedRevision + events.length;
          return 'appended';
        },
      };
    },
    catchUp: async () => {
      catchUps.push(known);
      known = stream.ids.length - 1;
    },
    exhausted: () => new Error('too many conflicts'),
  };
  return { steps, folded, catchUps };
}

describe('appending at the revision a decision was made on', () => {
  it('given a new stream, when the decision appends, then it expects no stream and folds the events at 0..n-1', async () => {
    const stream = new FakeStream();
    const { steps, folded } = writerOn(stream, () => ['a', 'b']);

    await expect(appendAtRevision(stream, steps)).resolves.toBe('appended');

    expect(stream.appends).toEqual(['no_stream']);
    expect(folded).toEqual([{ id: 'a', revision: 0 }, { id: 'b', revision: 1 }]);
  });

  it('given a decision with nothing to append, then the store is not written and its answer is returned', async () => {
    const stream = new FakeStream();

    await expect(appendAtRevision(stream, { streamId: 's', maxAttempts: 3, decide: () => ({ answer: 'refused' }), catchUp: async () => undefined, exhausted: () => new Error('x') })).resolves.toBe('refused');

    expect(stream.appends).toEqual([]);
  });

  it('given another writer appended first, then it catches up, decides again and appends after that write', async () => {
    const stream = new FakeStream();
    stream.writeOther('theirs');
    let attempt = 0;
    const { steps, folded, catchUps } = writerOn(stream, () => [`mine-${++attempt}`]);

    await appendAtRevision(stream, steps);

    expect(stream.appends).toEqual(['no_stream', 0]);
    expect(catchUps).toEqual([-1]);
    expect(folded).toEqual([{ id: 'mine-2', revision: 1 }]);
    expect(stream.ids).toEqual(['theirs', 'mine-2']);
  });

  it('given its events are already stored at another revision (an idempotent retry), then that is a conflict, not a success to fold', async () => {
    const stream = new FakeStream();
    stream.writeOther('theirs');
    stream.writeOther('retried');
    let attempt = 0;
    // Decided at revision -1, the first decision repeats an event id the stream holds at revision 1
    // (folded at 0 it would be at a revision another event holds); the second is new.
    const { steps, folded, catchUps } = writerOn(stream, () => [++attempt === 1 ? 'retried' : 'fresh']);

    await appendAtRevision(stream, steps);

    expect(catchUps).toEqual([-1]);
    expect(folded).toEqual([{ id: 'fresh', revision: 2 }]);
    expect(folded).not.toContainEqual(expect.objectContaining({ id: 'retried' }));
  });

  it('given every attempt conflicts, then it gives up after maxAttempts appends with the exhausted error, having caught up after each', async () => {
    const stream = new FakeStream();
    let attempt = 0;
    const { steps, catchUps } = writerOn(stream, () => {
      stream.writeOther(`theirs-${attempt}`);
      return [`mine-${++attempt}`];
    });

    await expect(appendAtRevision(stream, steps)).rejects.toThrow('too many conflicts');

    expect(stream.appends).toHaveLength(3);
    expect(catchUps).toHaveLength(3);
  });

  it('given the append fails otherwise, then appendFailed says what is thrown and nothing is caught up', async () => {
    const stream = new FakeStream();
    stream.failWith = new Error('disk full');
    const { steps, catchUps } = writerOn(stream, () => ['a']);

    await expect(appendAtRevision(stream, { ...steps, appendFailed: (error) => new Error(`unavailable: ${(error as Error).message}`) })).rejects.toThrow('unavailable: disk full');
    await expect(appendAtRevision(stream, steps)).rejects.toThrow('disk full');

    expect(catchUps).toEqual([]);
  });

  it('given the decision throws (a refusal), then that error ends it as it is', async () => {
    const stream = new FakeStream();
    const refusal = new Error('over budget');

    await expect(appendAtRevision(stream, { streamId: 's', maxAttempts: 3, decide: () => { throw refusal; }, catchUp: async () => undefined, exhausted: () => new Error('x') })).rejects.toBe(refusal);
    expect(stream.appends).toEqual([]);
  });
});
