// GET /captcha and POST /captcha/click (gateway routes/identity-captcha-routes.ts, public): issuing,
// answering, refusals and bad input. How other routes ask for a captcha proof: post-register,
// post-login-access-token and verification.
import { describe, expect, it } from 'vitest';
import { useIdentityHarness } from '../support/suite.js';

const harness = useIdentityHarness();

interface Issued {
  captcha_id: string;
  challenge: string;
  parsed: { target_text: string; image: string; options: string[]; width: number; height: number };
}

async function issue(): Promise<Issued> {
  const res = await harness.request('GET', '/captcha');
  expect(res.status).toBe(200);
  return { ...res.body.data, parsed: JSON.parse(res.body.data.challenge) };
}

/** The centre of an option's slot (options are drawn side by side, in `options` order). */
function optionCentre(issued: Issued, option: string): { x: number; y: number } {
  const slot = issued.parsed.width / issued.parsed.options.length;
  return { x: Math.round(slot * (issued.parsed.options.indexOf(option) + 0.5)), y: issued.parsed.height / 2 };
}

/** A curved, unevenly sampled path like a hand on a mouse, ending on `end`. */
function humanPath(end: { x: number; y: number }): { x: number; y: number; t: number; event: string }[] {
  const points = [];
  let t = 100;
  for (let i = 0; i < 12; i++) {
    t += 14 + ((i * 7) % 11);
    points.push({ x: 10 + i * 18 + (i % 3) * 2, y: 40 + Math.round(12 * Math.sin(i / 2)), t, event: 'move' });
  }
  points.push({ x: end.x, y: end.y, t: t + 40, event: 'click' });
  return points;
}

/**
 * Makes the stored challenge `ms` older (its server-side `issuedAt` moved back, TTL kept) instead
 * of waiting that long; a challenge already taken or never issued is left alone.
 */
async function ageChallenge(captchaId: string, ms: number): Promise<void> {
  const redis = harness.identity.dependencies.redis;
  const key = `captcha:challenge:${captchaId}`;
  const raw = await redis.get(key);
  if (raw === null) return;
  const stored = JSON.parse(raw) as { issuedAt: number };
  await redis.set(key, JSON.stringify({ ...stored, issuedAt: stored.issuedAt - ms }), 'KEEPTTL');
}

/** Ages the challenge past the server-side minimum age so only the rule under test decides. */
async function click(issued: Issued, overrides: Record<string, unknown> = {}, ageMs = 320) {
  await ageChallenge(issued.captcha_id, ageMs);
  return harness.request('POST', '/captcha/click', {
    json: {
      captcha_id: issued.captcha_id,
      challenge: issued.challenge,
      clicked_option: issued.parsed.target_text,
      elapsed_ms: 320,
      pointer: humanPath(optionCentre(issued, issued.parsed.target_text)),
      ...overrides,
    },
  });
}

describe('GET /captcha', () => {
  it('issues a challenge: JSON text with target, SVG data-URI image and the options drawn', async () => {
    const res = await harness.request('GET', '/captcha');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const data = res.body.data;
    expect(data).toEqual({
      captcha_id: expect.any(String),
      challenge: expect.any(String),
      prompt: 'captcha_click_prompt',
      expires_in: 300,
    });
    const parsed = JSON.parse(data.challenge);
    expect(parsed.options).toHaveLength(4);
    expect(new Set(parsed.options).size).toBe(4);
    expect(parsed.options).toContain(parsed.target_text);
    expect(parsed.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(parsed.image.split(',')[1], 'base64').toString('utf8');
    for (const option of parsed.options) expect(svg).toContain(`>${option}</text>`);
    // State in Redis with the spec's 300 s lifetime.
    const ttl = await harness.identity.dependencies.redis.ttl(`captcha:challenge:${data.captcha_id}`);
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);
  });

  it('issues a different challenge every time', async () => {
    const [a, b] = await Promise.all([issue(), issue()]);
    expect(a.captcha_id).not.toBe(b.captcha_id);
    expect(a.challenge).not.toBe(b.challenge);
  });
});

describe('POST /captcha/click', () => {
  it('accepts the target with a human trace and returns a single-use proof (stored hashed, 300 s)', async () => {
    const issued = await issue();
    const res = await click(issued);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ captcha_id: issued.captcha_id, captcha_token: expect.any(String) });
    const { redis, captcha } = harness.identity.dependencies;
    const stored = await redis.get(`captcha:proof:${issued.captcha_id}`);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(res.body.data.captcha_token);
    expect(await redis.ttl(`captcha:proof:${issued.captcha_id}`)).toBeGreaterThan(290);
    // The consumer port: first use true, second false.
    expect(await captcha!.consume(issued.captcha_id, res.body.data.captcha_token)).toBe(true);
    expect(await captcha!.consume(issued.captcha_id, res.body.data.captcha_token)).toBe(false);
  });

  it('refuses an empty pointer trace however long the click took (5303)', async () => {
    const issued = await issue();
    const res = await click(issued, { pointer: [], elapsed_ms: 900 }, 920);
    expect([res.status, res.body.code]).toEqual([400, 5303]);
  });

  it('refuses a human-looking trace that ends on another option than the one clicked (5303)', async () => {
    const issued = await issue();
    const other = issued.parsed.options.find((option) => option !== issued.parsed.target_text)!;
    const res = await click(issued, { pointer: humanPath(optionCentre(issued, other)) });
    expect([res.status, res.body.code]).toEqual([400, 5303]);
  });

  it('refuses a trace that ends outside the image (5303)', async () => {
    const issued = await issue();
    const res = await click(issued, { pointer: humanPath({ x: issued.parsed.width + 40, y: 20 }) });
    expect([res.status, res.body.code]).toEqual([400, 5303]);
  });

  it('consumes a proof on a wrong token too, and refuses unknown ids and empty tokens', async () => {
    const issued = await issue();
    const res = await click(issued);
    const { captcha } = harness.identity.dependencies;
    expect(await captcha!.consume(issued.captcha_id, 'not-the-token')).toBe(false);
    expect(await captcha!.consume(issued.captcha_id, res.body.data.captcha_token)).toBe(false);
    expect(await captcha!.consume('unknown-id-unknown-id', 'x')).toBe(false);
    expect(await captcha!.consume(issued.captcha_id, '')).toBe(false);
    expect(await captcha!.consume('../../etc', 'x')).toBe(false);
  });

  it('refuses a wrong option with 5303 and consumes the challenge (no second guess)', async () => {
    const issued = await issue();
    const wrong = issued.parsed.options.find((o) => o !== issued.parsed.target_text)!;
    const first = await click(issued, { clicked_option: wrong });
    expect(first.status).toBe(400);
    expect(first.body.code).toBe(5303);
    const retry = await click(issued);
    expect(retry.status).toBe(400);
    expect(retry.body.code).toBe(5303);
  });

  it('refuses an unknown or expired captcha id with 5303', async () => {
    const issued = await issue();
    const unknown = await click({ ...issued, captcha_id: 'AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.body.code).toBe(5303);
    // Expiry: Redis drops the key after 300 s; simulate by removing the TTL'd key.
    await harness.identity.dependencies.redis.del(`captcha:challenge:${issued.captcha_id}`);
    const expired = await click(issued);
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe(5303);
  });

  it('refuses a challenge text that differs from what was issued', async () => {
    const issued = await issue();
    const tampered = JSON.stringify({ ...issued.parsed, target_text: issued.parsed.target_text });
    const res = await click(issued, { challenge: `${tampered} ` });
    expect(res.body.code).toBe(5303);
  });

  it('uses the challenge once even after a success', async () => {
    const issued = await issue();
    expect((await click(issued)).status).toBe(200);
    expect((await click(issued)).body.code).toBe(5303);
  });

  const scripted: [string, Record<string, unknown>][] = [
    ['elapsed_ms under 300', { elapsed_ms: 120 }],
    ['elapsed_ms over 300 s', { elapsed_ms: 300_001 }],
    ['elapsed_ms longer than the challenge has existed', { elapsed_ms: 60_000 }],
    ['no pointer and a quick click', { pointer: [], elapsed_ms: 320 }],
    [
      'too few pointer samples',
      {
        pointer: [
          { x: 1, y: 2, t: 1 },
          { x: 5, y: 9, t: 30 },
        ],
      },
    ],
    [
      'timestamps going backwards',
      {
        pointer: [
          { x: 1, y: 2, t: 50 },
          { x: 9, y: 14, t: 40 },
          { x: 20, y: 11, t: 90 },
        ],
      },
    ],
    [
      'all samples at the same instant',
      {
        pointer: [
          { x: 1, y: 2, t: 50 },
          { x: 9, y: 14, t: 50 },
          { x: 20, y: 11, t: 50 },
        ],
      },
    ],
    [
      'a perfectly straight line',
      { pointer: Array.from({ length: 10 }, (_, i) => ({ x: i * 10, y: i * 5, t: i * 13 + (i % 2) })) },
    ],
    [
      'a trace longer than the claimed elapsed time',
      {
        elapsed_ms: 320,
        pointer: [
          { x: 1, y: 2, t: 0 },
          { x: 9, y: 14, t: 900 },
          { x: 20, y: 11, t: 2_000 },
        ],
      },
    ],
    [
      'constant velocity at a constant sampling rate (tweening)',
      {
        pointer: Array.from({ length: 10 }, (_, i) => ({
          x: 100 + 50 * Math.cos(i / 5),
          y: 100 + 50 * Math.sin(i / 5),
          t: i * 16,
        })),
      },
    ],
  ];
  it.each(scripted)('refuses a scripted trace: %s', async (_name, overrides) => {
    const issued = await issue();
    const res = await click(issued, overrides);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5303);
  });
});

describe('POST /captcha/click bad input (422 / 1001 at the gateway)', () => {
  const valid = {
    captcha_id: 'abcdefabcdefabcdef12',
    challenge: '{}',
    clicked_option: 'ABC',
    elapsed_ms: 1000,
  };
  const cases: [string, unknown, string][] = [
    ['missing captcha_id', { ...valid, captcha_id: undefined }, 'captcha_id'],
    ['missing challenge', { ...valid, challenge: undefined }, 'challenge'],
    ['missing clicked_option', { ...valid, clicked_option: undefined }, 'clicked_option'],
    ['missing elapsed_ms', { ...valid, elapsed_ms: undefined }, 'elapsed_ms'],
    ['elapsed_ms not an integer', { ...valid, elapsed_ms: 12.5 }, 'elapsed_ms'],
    ['elapsed_ms a string', { ...valid, elapsed_ms: '1000' }, 'elapsed_ms'],
    ['elapsed_ms negative', { ...valid, elapsed_ms: -1 }, 'elapsed_ms'],
    ['captcha_id a number', { ...valid, captcha_id: 12 }, 'captcha_id'],
    ['captcha_id too long', { ...valid, captcha_id: 'a'.repeat(65) }, 'captcha_id'],
    ['challenge too long', { ...valid, challenge: 'x'.repeat(16_385) }, 'challenge'],
    ['clicked_option empty', { ...valid, clicked_option: '' }, 'clicked_option'],
    ['clicked_option too long', { ...valid, clicked_option: 'x'.repeat(33) }, 'clicked_option'],
    ['pointer not an array', { ...valid, pointer: 'moves' }, 'pointer'],
    ['pointer sample without x', { ...valid, pointer: [{ y: 1, t: 1 }] }, 'pointer.0.x'],
    ['pointer sample x a string', { ...valid, pointer: [{ x: '1', y: 1, t: 1 }] }, 'pointer.0.x'],
    [
      'pointer sample unknown event',
      { ...valid, pointer: [{ x: 1, y: 1, t: 1, event: 'drag' }] },
      'pointer.0.event',
    ],
    ['pointer sample negative t', { ...valid, pointer: [{ x: 1, y: 1, t: -5 }] }, 'pointer.0.t'],
    ['too many pointer samples', { ...valid, pointer: Array(2_001).fill({ x: 1, y: 1, t: 1 }) }, 'pointer'],
    ['unknown field', { ...valid, extra: 1 }, '_'],
  ];
  it.each(cases)('%s', async (_name, json, field) => {
    const res = await harness.request('POST', '/captcha/click', { json });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(1001);
    if (field !== '_') expect(Object.keys(res.body.data.errors)).toContain(field);
  });

  it('refuses a JSON array, malformed JSON and a form body', async () => {
    const array = await harness.request('POST', '/captcha/click', { json: [valid] });
    expect([array.status, array.body.code]).toEqual([422, 1001]);
    const malformed = await fetch(`${harness.baseUrl}/api/v1/captcha/click`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"captcha_id": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: number }).code).toBe(1002);
    const form = await harness.request('POST', '/captcha/click', { form: { captcha_id: 'x' } });
    expect(form.status).toBe(415);
  });

  it('refuses other methods on /captcha', async () => {
    const res = await harness.request('DELETE', '/captcha');
    expect(res.status).toBe(405);
  });
});
