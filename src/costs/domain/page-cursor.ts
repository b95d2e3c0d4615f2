// Opaque page cursors: a base64url JSON payload and an HMAC-SHA256 of it under a server secret, so a
// client can hand a cursor back but cannot forge or edit one.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../common/api-error';
import { COST_GROUPINGS, type CostGrouping } from './cost-query';

export interface CostCursor {
  organizationId: string;
  startTime: number;
  endTime: number;
  groupBy: CostGrouping | null;
  /** Unix seconds of the first bucket of the next page. */
  nextBucketStart: number;
}

const mac = (payload: string, secret: string): Buffer => createHmac('sha256', secret).update(payload).digest();

export function signCursor(cursor: CostCursor, secret: string): string {
  const payload = Buffer.from(JSON.stringify(cursor)).toString('base64url');
  return `${payload}.${mac(payload, secret).toString('base64url')}`;
}

export function invalidCursor(reason: string): ApiError {
  return ApiError.badRequest('invalid_page_cursor', `The page cursor is invalid: ${reason}. Use next_page of a previous response unchanged.`, 'page');
}

export function verifyCursor(token: string, secret: string): CostCursor {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) throw invalidCursor('malformed');
  const expected = mac(payload, secret);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor('signature mismatch');
  return parsePayload(payload);
}

function parsePayload(payload: string): CostCursor {
  try {
    const cursor = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CostCursor;
    const numbers = [cursor.startTime, cursor.endTime, cursor.nextBucketStart];
    if (typeof cursor.organizationId !== 'string' || !(cursor.groupBy === null || COST_GROUPINGS.includes(cursor.groupBy)) || !numbers.every(Number.isSafeInteger)) {
      throw new Error('unexpected payload');
    }
    return cursor;
  } catch {
    throw invalidCursor('unreadable payload');
  }
}
