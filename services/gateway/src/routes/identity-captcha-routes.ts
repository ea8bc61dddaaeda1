import { z } from 'zod';
import type { ServiceClients } from '../service-clients.js';
import { defineRoute } from './route-definition.js';

/** The challenge JSON we issue is under 6 KB (SVG image as base64); 16 KB leaves room, no more. */
const MAX_CHALLENGE_CHARS = 16_384;
/** Browsers sample pointer moves at ~60 Hz; 2000 samples is over 30 s of movement. */
const MAX_POINTER_SAMPLES = 2_000;
const coordinate = z.number().finite().min(-100_000).max(100_000);

const pointerSample = z.strictObject({
  x: coordinate,
  y: coordinate,
  t: z.number().finite().min(0).max(1e13),
  event: z.enum(['move', 'down', 'up', 'click']).default('move'),
});

const clickBody = z.strictObject({
  captcha_id: z.string().min(1).max(64),
  challenge: z.string().min(1).max(MAX_CHALLENGE_CHARS),
  clicked_option: z.string().min(1).max(32),
  elapsed_ms: z.number().int().min(0).max(3_600_000),
  pointer: z.array(pointerSample).max(MAX_POINTER_SAMPLES).default([]),
});
type ClickBody = z.infer<typeof clickBody>;

const challengeResponse = z.object({
  captcha_id: z.string(),
  challenge: z
    .string()
    .describe('JSON text: {target_text, image (data:image/svg+xml;base64 URI), options (display order)}'),
  prompt: z.string().describe('message key, `captcha_click_prompt`'),
  expires_in: z.number().int(),
});

const proofResponse = z.object({ captcha_id: z.string(), captcha_token: z.string() });

/** Click-captcha (public). */
export const identityCaptchaRoutes = [
  defineRoute<ServiceClients>({
    method: 'get',
    path: '/captcha',
    summary: 'Issue a click-captcha challenge (valid 300 s)',
    tags: ['captcha'],
    auth: 'public',
    response: challengeResponse,
    invoke: (_input, { clients, ip }) => clients.captcha.call('createCaptcha', { ip }),
  }),
  defineRoute<ServiceClients, undefined, undefined, ClickBody>({
    method: 'post',
    path: '/captcha/click',
    summary: 'Answer a challenge; returns a single-use proof (5303 on any failure)',
    tags: ['captcha'],
    auth: 'public',
    body: clickBody,
    response: proofResponse,
    invoke: ({ body }, { clients, ip }) =>
      clients.captcha.call('submitCaptchaClick', {
        captcha_id: body.captcha_id,
        challenge: body.challenge,
        clicked_option: body.clicked_option,
        elapsed_ms: body.elapsed_ms,
        pointer: body.pointer,
        ip,
      }),
  }),
];
