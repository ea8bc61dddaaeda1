import { describe, expect, it } from 'vitest';
import { BusinessError, ErrorCode, fail, ok, paged, type Envelope, type Paged } from '../src/index.js';

describe('envelope', () => {
  it('ok() has code 0, the data and a localized msg', () => {
    expect(ok({ id: 'a' }, 'en')).toEqual({ code: 0, data: { id: 'a' }, msg: 'Success' });
    expect(ok(null, 'zh')).toEqual({ code: 0, data: null, msg: '成功' });
    expect(ok({ id: 'n1' }, 'zh', { msgKey: 'notifications_created', params: { count: 2 } }).msg).toBe(
      '已创建 2 条通知',
    );
    expect(Object.keys(ok(1, 'en')).sort()).toEqual(['code', 'data', 'msg']);
  });

  it('fail() has the error code, data (or null) and localized msg', () => {
    expect(fail(new BusinessError(ErrorCode.USERNAME_EXISTS), 'zh')).toEqual({
      code: 5002,
      data: null,
      msg: '用户名已存在',
    });
    expect(
      fail(new BusinessError(ErrorCode.EMAIL_SEND_TOO_FREQUENT, { data: { remaining_seconds: 42 } }), 'en'),
    ).toEqual({
      code: 5008,
      data: { remaining_seconds: 42 },
      msg: 'Emails are requested too often; please try again in 42 seconds',
    });
    const named = fail(BusinessError.named('notification_not_found'), 'zh');
    expect(named).toEqual({ code: 4000, data: { error_key: 'notification_not_found' }, msg: '通知不存在' });
  });

  it('paged() builds the list shape', () => {
    const page: Paged<number> = paged([1, 2], 7, 2, 2);
    expect(page).toEqual({ items: [1, 2], total: 7, page: 2, page_size: 2 });
    const envelope: Envelope<Paged<number>> = ok(page, 'en');
    expect(envelope.data.page_size).toBe(2);
  });
});
