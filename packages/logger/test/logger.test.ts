import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, requestContext } from '../src/index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, stream };
}

describe('logger', () => {
  it('adds the request id of the current context to every line', async () => {
    const { lines, stream } = capture();
    const logger = createLogger('gateway', 'info', stream);
    logger.info('outside');
    await requestContext.run({ requestId: 'req-1', userId: 'u-1' }, async () => {
      await Promise.resolve();
      logger.info({ route: '/x' }, 'inside');
    });
    expect(lines[0]).toMatchObject({ service: 'gateway', level: 'info', msg: 'outside' });
    expect(lines[0]).not.toHaveProperty('request_id');
    expect(lines[1]).toMatchObject({ request_id: 'req-1', user_id: 'u-1', route: '/x', msg: 'inside' });
  });

  it('redacts secrets', () => {
    const { lines, stream } = capture();
    createLogger('identity', 'info', stream).info({ password: 'hunter2', user: { token: 't' } }, 'login');
    expect(lines[0]?.password).toBe('[redacted]');
    expect((lines[0]?.user as Record<string, unknown>).token).toBe('[redacted]');
  });
});
