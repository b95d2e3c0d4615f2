import { ANY, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import { comparePositions } from '../event-store.port';
import { decodePosition, encodePosition, fromEsdbCurrentRevision, isUserEvent, toEsdbExpectedRevision } from './esdb-mapping';

describe('EventStoreDB mapping', () => {
  it('round-trips a commit/prepare position through a comparable string', () => {
    const position = { commit: 18446744073709551615n, prepare: 12n };
    expect(decodePosition(encodePosition(position))).toEqual(position);
    expect(comparePositions(encodePosition({ commit: 99n, prepare: 99n }), encodePosition({ commit: 100n, prepare: 0n }))).toBe(-1);
  });

  it('rejects a position from another store', () => {
    expect(() => decodePosition('42')).toThrow('not an EventStoreDB position');
  });

  it('maps every expected revision variant', () => {
    expect([toEsdbExpectedRevision('any'), toEsdbExpectedRevision('no_stream'), toEsdbExpectedRevision('stream_exists'), toEsdbExpectedRevision(3)]).toEqual([
      ANY,
      NO_STREAM,
      STREAM_EXISTS,
      3n,
    ]);
    expect(fromEsdbCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromEsdbCurrentRevision(7n)).toBe(7);
  });

  it('treats $-prefixed types and streams as system events', () => {
    const resolved = (type: string, streamId: string) => ({ event: { type, streamId } }) as never;
    expect(isUserEvent(resolved('CostPriced', 'request-1'))).toBe(true);
    expect(isUserEvent(resolved('$metadata', 'request-1'))).toBe(false);
    expect(isUserEvent(resolved('CostPriced', '$$request-1'))).toBe(false);
    expect(isUserEvent({} as never)).toBe(false);
  });
});
