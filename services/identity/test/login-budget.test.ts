import { describe, expect, it } from 'vitest';
import { accountLocked, tooManyAttemptsInFlight, waitForPlace } from '../src/domain/auth/login-budget.js';

// The pure parts of the login budget (domain/auth/login-budget.ts): the wait for a free place and
// the two refusals it ends in. The database side is tested over HTTP (auth-lockout-burst.int).

describe('waitForPlace', () => {
  it('takes once and answers at once when a place is free', async () => {
    let calls = 0;
    const place = await waitForPlace(async () => {
      calls += 1;
      return { place: 1 };
    }, 60_000);
    expect(place).toEqual({ place: 1 });
    expect(calls).toBe(1);
  });

  it('looks again while busy and answers the first place that comes free', async () => {
    const answers: ({ place: number } | 'busy')[] = ['busy', 'busy', { place: 3 }];
    let calls = 0;
    const place = await waitForPlace(async () => answers[calls++]!, 60_000);
    expect(place).toEqual({ place: 3 });
    expect(calls).toBe(3);
  });

  it('a budget still busy when the wait is over comes back busy (no wait: one look)', async () => {
    let calls = 0;
    const take = async () => {
      calls += 1;
      return 'busy' as const;
    };
    expect(await waitForPlace(take, 0)).toBe('busy');
    expect(calls).toBe(1);
  });

  it('a short wait ends busy after more than one look, not before its deadline', async () => {
    let calls = 0;
    const started = Date.now();
    const result = await waitForPlace(async () => {
      calls += 1;
      return 'busy' as const;
    }, 50);
    expect(result).toBe('busy');
    expect(calls).toBeGreaterThan(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('an answer that is not busy (a lock, a refusal) ends the wait like a place', async () => {
    const locked = { outcome: 'locked', seconds: 60 } as const;
    expect(await waitForPlace(async () => locked, 60_000)).toBe(locked);
  });
});

describe('login budget refusals', () => {
  it('every place taken for the whole wait: 5400 naming login_attempts_in_flight with the limit', () => {
    const error = tooManyAttemptsInFlight(5);
    expect(error).toMatchObject({ code: 5400, httpStatus: 400 });
    expect(error.data).toMatchObject({ error_key: 'login_attempts_in_flight', limit: 5 });
  });

  it('a lock is 5300 with lockout_seconds, never less than 1', () => {
    expect(accountLocked(900)).toMatchObject({ code: 5300, data: { lockout_seconds: 900 } });
    expect(accountLocked(0).data).toMatchObject({ lockout_seconds: 1 });
    expect(accountLocked(-5).data).toMatchObject({ lockout_seconds: 1 });
  });
});
