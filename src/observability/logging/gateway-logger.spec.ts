// The gateway's one logger: what a part writes through its GatewayLog child is one JSON line with the
// part's context, credentials masked; `silent` writes nothing; a part built without one is silent.
import type { GatewayLog } from '../../common/gateway-log';
import { SILENT_LOG } from '../../common/gateway-log';
import { createGatewayLogger } from './gateway-logger';

function capture(level: string) {
  let output = '';
  const logger = createGatewayLogger(level, { write: (chunk: string) => void (output += chunk) });
  const lines = () => output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);
  return { logger, lines };
}

describe('createGatewayLogger', () => {
  it("writes a part's line with its context, fields first, and masks credentials", () => {
    const { logger, lines } = capture('info');
    const part: GatewayLog = logger.child({ context: 'billing' });
    part.error({ requestId: 'req-1', err: new Error('disk full'), api_key: 'sk-secret-1234567890' }, 'billing append failed');
    part.warn('spool drained');
    expect(lines()).toEqual([
      expect.objectContaining({ level: 50, context: 'billing', requestId: 'req-1', api_key: '[redacted]', msg: 'billing append failed', err: expect.objectContaining({ message: 'disk full' }) }),
      expect.objectContaining({ level: 40, context: 'billing', msg: 'spool drained' }),
    ]);
  });

  it('drops lines under its level and writes nothing when silent', () => {
    const info = capture('info');
    info.logger.debug('detail');
    expect(info.lines()).toEqual([]);
    const silent = capture('silent');
    silent.logger.child({ context: 'errors' }).error({ err: new Error('boom') }, 'failed');
    expect(silent.lines()).toEqual([]);
  });

  it('the silent log hands out itself as a child', () => {
    expect(SILENT_LOG.child({ context: 'x' })).toBe(SILENT_LOG);
    expect(() => SILENT_LOG.error({ err: new Error('ignored') }, 'nothing')).not.toThrow();
  });
});
