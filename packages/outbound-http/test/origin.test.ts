import { describe, expect, it } from 'vitest';
import {
  createAllowlist,
  isOrigin,
  isUrlAllowlisted,
  normalizeOrigin,
  parseOrigin,
  urlOrigin,
} from '../src/index.js';

describe('parseOrigin / normalizeOrigin (allowlist entries)', () => {
  it.each([
    ['https://api.openai.com', 'https://api.openai.com'],
    ['https://api.openai.com/', 'https://api.openai.com'],
    ['https://api.openai.com:443', 'https://api.openai.com'],
    ['http://ollama.lan:80/', 'http://ollama.lan'],
    ['http://ollama.lan:11434', 'http://ollama.lan:11434'],
    ['https://ollama.lan:80', 'https://ollama.lan:80'],
    ['HTTPS://API.OpenAI.COM', 'https://api.openai.com'],
    ['https://api.openai.com.', 'https://api.openai.com'],
    ['https://Bücher.example', 'https://xn--bcher-kva.example'],
    ['http://10.0.0.5:8000', 'http://10.0.0.5:8000'],
    ['http://[0:0:0:0:0:0:0:1]:8000', 'http://[::1]:8000'],
    ['http://[FD00::1]', 'http://[fd00::1]'],
    ['  https://api.openai.com  ', 'https://api.openai.com'],
  ])('%s → %s', (entry, origin) => {
    expect(parseOrigin(entry)).toBe(origin);
    expect(normalizeOrigin(entry)).toBe(origin);
    expect(isOrigin(entry)).toBe(true);
  });

  it.each([
    'api.openai.com',
    'https://api.openai.com/v1',
    'https://api.openai.com/?x=1',
    'https://api.openai.com?x=1',
    'https://api.openai.com#f',
    'https://user:pw@api.openai.com',
    'https://user@api.openai.com',
    'ftp://files.example.com',
    'https:api.openai.com',
    'https:/api.openai.com',
    'https://',
    'https://api..openai.com',
    'https://api.openai.com:0',
    'https://api.openai.com:99999',
    'https://exa\tmple.com',
    'https://exa\nmple.com',
    'https://exa mple.com',
    'https://api.openai.com\\v1',
    '',
  ])('%j is not an origin', (entry) => {
    expect(parseOrigin(entry)).toBeNull();
    expect(isOrigin(entry)).toBe(false);
    expect(() => normalizeOrigin(entry)).toThrow(RangeError);
  });
});

describe('urlOrigin (request URLs)', () => {
  it('ignores path, query, fragment and credentials', () => {
    expect(urlOrigin('https://user:secret@api.openai.com:443/v1/models?x=1#y')).toBe(
      'https://api.openai.com',
    );
    expect(urlOrigin(new URL('http://h.example:8080/a'))).toBe('http://h.example:8080');
  });

  it('folds decimal, octal and hex IPv4 forms to dotted quads', () => {
    expect(urlOrigin('http://2130706433/')).toBe('http://127.0.0.1');
    expect(urlOrigin('http://0x7f.1/')).toBe('http://127.0.0.1');
    expect(urlOrigin('http://0177.0.0.1:81/')).toBe('http://127.0.0.1:81');
  });

  it('refuses non-http schemes and relative input', () => {
    expect(urlOrigin('file:///etc/passwd')).toBeNull();
    expect(urlOrigin('/v1/models')).toBeNull();
    expect(urlOrigin('gopher://x')).toBeNull();
  });
});

describe('allowlist matching', () => {
  const entries = [
    'https://api.openai.com',
    'http://ollama.lan:11434/',
    'not an origin',
    'https://api.example.com/v1',
  ];

  it('matches by full origin with default ports normalized', () => {
    const allow = createAllowlist(entries);
    expect(allow.has('https://api.openai.com')).toBe(true);
    expect(isUrlAllowlisted('https://api.openai.com:443/v1/chat', entries)).toBe(true);
    expect(isUrlAllowlisted('https://API.OPENAI.COM./v1', entries)).toBe(true);
    expect(isUrlAllowlisted('http://ollama.lan:11434/api', entries)).toBe(true);
  });

  it('is strict about scheme, port and host', () => {
    expect(isUrlAllowlisted('http://api.openai.com/v1', entries)).toBe(false);
    expect(isUrlAllowlisted('https://api.openai.com:8443/v1', entries)).toBe(false);
    expect(isUrlAllowlisted('http://ollama.lan/api', entries)).toBe(false);
    expect(isUrlAllowlisted('http://ollama.lan:11435/api', entries)).toBe(false);
    expect(isUrlAllowlisted('https://evil-api.openai.com', entries)).toBe(false);
    expect(isUrlAllowlisted('https://api.openai.com.evil.com', entries)).toBe(false);
  });

  it('skips entries that are not origins (they can never match)', () => {
    expect(isUrlAllowlisted('https://api.example.com/v1', entries)).toBe(false);
  });
});
