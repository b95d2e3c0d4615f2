import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { sharedLogOptions } from './log-options';
import { lazyRequestLogger } from './lazy-request-logger';

function capture(level: string): { logger: FastifyBaseLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino(sharedLogOptions(level), stream) as unknown as FastifyBaseLogger, lines };
}

const withoutTime = ({ time: _time, ...line }: Record<string, unknown>) => line;

describe('lazy request logger', () => {
  it('writes the same lines as a pino child, with its bindings, redacted', () => {
    const eager = capture('info');
    const lazy = capture('info');
    const bindings = { requestId: 'req-1', correlationId: 'client-7' };
    for (const { logger } of [eager]) logger.child(bindings, {}).warn({ headers: { authorization: 'Bearer sk-secret' }, n: 1 }, 'upstream slow');
    lazyRequestLogger(lazy.logger, bindings, {}).warn({ headers: { authorization: 'Bearer sk-secret' }, n: 1 }, 'upstream slow');
    expect(lazy.lines.map(withoutTime)).toEqual(eager.lines.map(withoutTime));
    expect(lazy.lines[0]).toMatchObject({ requestId: 'req-1', correlationId: 'client-7', msg: 'upstream slow', headers: { authorization: '[redacted]' } });
  });

  it('makes no pino child for lines below the level, and one for the first line written', () => {
    const { logger, lines } = capture('warn');
    const child = jest.spyOn(logger, 'child');
    const log = lazyRequestLogger(logger, { requestId: 'req-2' }, {});
    log.info('not written');
    log.debug('not written');
    expect(child).not.toHaveBeenCalled();
    expect(log.level).toBe('warn');
    log.error('written');
    log.warn('written too');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((line) => [line.requestId, line.msg])).toEqual([['req-2', 'written'], ['req-2', 'written too']]);
  });

  it('follows a level set on it and hands out children of its own child', () => {
    const { logger, lines } = capture('warn');
    const log = lazyRequestLogger(logger, { requestId: 'req-3' }, {});
    log.level = 'debug';
    log.debug('now written');
    log.child({ stage: 'upstream' }).info('from a grandchild');
    expect(logger.level).toBe('warn');
    expect(lines.map((line) => [line.requestId, line.stage, line.msg])).toEqual([['req-3', undefined, 'now written'], ['req-3', 'upstream', 'from a grandchild']]);
  });
});
