import { classifyFailure, EventContractError, reasonOf } from './event-contract-error';

/** What better-sqlite3 throws: an Error subclass with an SQLITE_* code. */
function sqliteError(code: string): Error {
  return Object.assign(new Error(`${code} happened`), { code });
}

describe('classifyFailure', () => {
  it('parks what a fold rejects: its contract errors and the type/range errors of wrongly shaped data', () => {
    expect(classifyFailure(new EventContractError('costUsdMicros beyond the bound'))).toBe('poison');
    expect(classifyFailure(new TypeError("Cannot read properties of null (reading 'organizationId')"))).toBe('poison');
    expect(classifyFailure(new RangeError('The bound BigInt is too large for SQLite'))).toBe('poison');
    expect(classifyFailure(new SyntaxError('Unexpected token'))).toBe('poison');
  });

  it('retries what the machine throws: SQLite busy/full/io, system errors, and anything unknown', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'ENOSPC', 'EIO']) {
      expect(classifyFailure(sqliteError(code))).toBe('infrastructure');
    }
    // A coded TypeError is a system error (e.g. ERR_INVALID_STATE from a closed handle), not bad data.
    expect(classifyFailure(Object.assign(new TypeError('database connection is not open'), { code: 'ERR_DB_CLOSED' }))).toBe('infrastructure');
    expect(classifyFailure(new TypeError('The database connection is not open'))).toBe('infrastructure');
    expect(classifyFailure(new Error('disk went away'))).toBe('infrastructure');
    expect(classifyFailure('a string')).toBe('infrastructure');
    expect(classifyFailure(null)).toBe('infrastructure');
  });

  it('words the reason with the error class so an operator sees which rule parked it', () => {
    expect(reasonOf(new EventContractError('bad'))).toBe('EventContractError: bad');
    expect(reasonOf('plain')).toBe('plain');
  });
});
