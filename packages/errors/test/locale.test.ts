import { describe, expect, it } from 'vitest';
import { interpolate, isLocale, negotiateLocale, toLocale, translate } from '../src/index.js';

describe('negotiateLocale', () => {
  it.each([
    [undefined, 'en'],
    [null, 'en'],
    ['', 'en'],
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['zh', 'zh'],
    ['zh-CN', 'zh'],
    ['zh-Hans', 'zh'],
    ['zh-Hans-CN', 'zh'],
    ['zh-TW', 'zh'],
    ['ZH-cn', 'zh'],
    ['zh_CN', 'zh'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en;q=0.5, zh;q=0.9', 'zh'],
    ['en;q=0.9, zh;q=0.9', 'en'],
    ['fr-FR, zh;q=0.5', 'zh'],
    ['fr, de', 'en'],
    ['*', 'en'],
    ['zh;q=0', 'en'],
    ['zh;q=0, en;q=0.1', 'en'],
    ['zh;q=abc, en;q=0.1', 'en'],
    ['zh;q=1.5', 'en'],
    ['de;q=1, *;q=0.5, zh;q=0.4', 'en'],
    [' zh-CN ; q=0.8 , en ; q=0.7', 'zh'],
    [',,;q=1,zh', 'zh'],
    [['fr', 'zh-TW;q=0.5'], 'zh'],
  ] as const)('%j → %s', (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe('toLocale / isLocale', () => {
  it('maps tags and rejects others', () => {
    expect(toLocale('zh-Hant-TW')).toBe('zh');
    expect(toLocale('en-GB')).toBe('en');
    expect(toLocale('ja')).toBeUndefined();
    expect(toLocale(undefined)).toBeUndefined();
    expect(isLocale('zh')).toBe(true);
    expect(isLocale('zh-CN')).toBe(false);
  });
});

describe('translate', () => {
  it('translates by key and locale', () => {
    expect(translate('username_exists', 'en')).toBe('Username already exists');
    expect(translate('username_exists', 'zh')).toBe('用户名已存在');
    expect(translate('success', 'zh')).toBe('成功');
  });

  it('interpolates placeholders from params', () => {
    expect(translate('account_locked', 'en', { lockout_seconds: 900 })).toBe(
      'The account is locked; please try again in 900 seconds',
    );
    expect(translate('account_locked', 'zh', { lockout_seconds: 900 })).toBe(
      '账号已被锁定，请在 900 秒后重试',
    );
    expect(translate('notifications_created', 'en', { count: 3 })).toBe('3 notifications created');
  });

  it('falls back to the key for unknown keys and leaves missing placeholders', () => {
    expect(translate('no_such_key', 'zh')).toBe('no_such_key');
    expect(translate('account_locked', 'en')).toContain('{lockout_seconds}');
    expect(interpolate('{a} {b} {c}', { a: 'x', b: { nested: true } })).toBe('x {b} {c}');
    expect(interpolate('{toString}', {})).toBe('{toString}');
  });

  it('falls back to en when the locale text is missing', () => {
    // Every shipped key has both texts; an unsupported locale value still resolves to en.
    expect(translate('success', 'fr' as never)).toBe('Success');
  });
});
