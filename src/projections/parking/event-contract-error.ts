// The one rule that tells a poison event from a fault of the machine (docs/projections.md, "Parked events").
// A fold that finds an event it cannot represent throws EventContractError; retrying such an event can
// never succeed, so it is parked. Anything the disk, SQLite or the network throws is retried, never parked.

/** Thrown by a pure fold when an event breaks the event contract (bad type, out of range, missing field). */
export class EventContractError extends Error {
  override readonly name = 'EventContractError';
}

export type FailureKind = 'poison' | 'infrastructure';

/**
 * Poison: the fold's own contract errors, and the TypeError/RangeError/SyntaxError that pure code raises
 * on data of the wrong shape (`null.organizationId`, a BigInt too large for SQLite's 64-bit INTEGER).
 * Infrastructure: everything else, in particular SqliteError (SQLITE_BUSY, SQLITE_FULL, SQLITE_IOERR)
 * and Node system errors (ENOSPC, EIO), which carry a `code`; those get retried until they go away.
 */
export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof EventContractError) return 'poison';
  if (hasErrorCode(error) || isClosedDatabase(error)) return 'infrastructure';
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return 'poison';
  return 'infrastructure';
}

/** better-sqlite3 reports a closed connection as an uncoded TypeError; that is the machine, not the event. */
function isClosedDatabase(error: unknown): boolean {
  return error instanceof TypeError && /database connection is not open/i.test(error.message);
}

function hasErrorCode(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'string';
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
