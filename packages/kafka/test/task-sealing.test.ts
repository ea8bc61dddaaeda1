import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTask, NonRetryableError, type TaskArgsCipher } from '../src/index.js';
import { parseTask } from '../src/task-message.js';

/** A real AES-GCM cipher (the shape of `SecretBox`), without depending on @platform/crypto. */
function cipher(key = randomBytes(32)): TaskArgsCipher {
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      return [iv, c.getAuthTag(), data].map((b) => b.toString('base64url')).join(':');
    },
    decrypt(text) {
      const [iv, tag, data] = text.split(':').map((p) => Buffer.from(p, 'base64url'));
      const d = createDecipheriv('aes-256-gcm', key, iv!);
      d.setAuthTag(tag!);
      return Buffer.concat([d.update(data!), d.final()]).toString('utf8');
    },
  };
}

describe('sealed task args', () => {
  const args = { to: 'a@example.test', text: 'your code is 123456' };

  it('a sealed task carries only ciphertext; the worker with the key opens it', () => {
    const box = cipher();
    const task = buildTask('default', 'email.send', args, { id: 't1', seal: box, topicPrefix: 'p.' });
    expect(task).toMatchObject({ topic: 'p.queue.default', key: 't1', id: 't1', type: 'email.send' });
    const wire = JSON.stringify(task.value);
    expect(wire).not.toContain('123456');
    expect(wire).not.toContain('a@example.test');
    expect(task.value.args).toEqual({});
    expect(parseTask(JSON.parse(wire), box).args).toEqual(args);
  });

  it('is final (not retried) without the key or with another key', () => {
    const task = buildTask('default', 'email.send', args, { seal: cipher() });
    const wire = JSON.parse(JSON.stringify(task.value));
    expect(() => parseTask(wire, undefined)).toThrow(NonRetryableError);
    expect(() => parseTask(wire, cipher())).toThrow(NonRetryableError);
  });

  it('an unsealed task is unchanged', () => {
    const task = buildTask('default', 'email.send', args);
    expect(task.value.args).toEqual(args);
    expect(task.value.sealed_args).toBeUndefined();
    expect(parseTask(JSON.parse(JSON.stringify(task.value)), undefined).args).toEqual(args);
  });
});
