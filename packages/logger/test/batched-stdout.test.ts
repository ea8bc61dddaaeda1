import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchedStdout, createLogger } from '../src/index.js';

const linesIn = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('batchedStdout', () => {
  it('writes the lines of a batch together, at most flushMs later, in order', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'batched-')), 'out.log');
    const fd = openSync(file, 'a');
    try {
      const logger = createLogger('test', 'info', batchedStdout(20, fd));
      for (let i = 0; i < 50; i++) logger.info({ i }, 'request');
      expect(linesIn(file)).toHaveLength(0); // still waiting for the batch
      await new Promise((resolve) => setTimeout(resolve, 80));
      const lines = linesIn(file).map((line) => JSON.parse(line) as { i: number });
      expect(lines.map((line) => line.i)).toEqual([...Array(50).keys()]);
    } finally {
      closeSync(fd);
    }
  });

  it('flushMs 0 writes every line at once', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'batched-')), 'out.log');
    const fd = openSync(file, 'a');
    try {
      createLogger('test', 'info', batchedStdout(0, fd)).info('now');
      expect(linesIn(file)).toHaveLength(1);
    } finally {
      closeSync(fd);
    }
  });
});
