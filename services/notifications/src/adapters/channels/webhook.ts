import type { ChannelMessage, SenderContext } from '../../domain/delivery/delivery-ports.js';
import { createHmac } from 'node:crypto';
import { checkDestination, sendHttp } from './http-send.js';

export interface WebhookSettings {
  webhook_url: string;
  webhook_method: 'POST' | 'GET';
  webhook_headers: Record<string, string>;
  webhook_body_template: string;
  webhook_secret: string;
}

/** A value placed inside a JSON string: escaped, without the surrounding quotes. */
const jsonEscaped = (value: string) => JSON.stringify(value).slice(1, -1);

/**
 * The body: `webhook_body_template` with `{{title}}`, `{{content}}` and `{{link_url}}` replaced by
 * their JSON-escaped text (write `"{{title}}"` in a JSON template); without a template, the
 * documented default `{"event":"notification","id","title","content","link_url"}`. Not the
 * workflows' `{{path}}` renderer on purpose: three fixed names, JSON-escaped, and any other
 * `{{…}}` kept as written (workflows render paths into variables, unescaped, a missing one as '').
 */
export function renderWebhookBody(template: string, message: ChannelMessage): string {
  if (!template.trim()) {
    return JSON.stringify({
      event: 'notification',
      id: message.deliveryId,
      title: message.title,
      content: message.content,
      link_url: message.linkUrl,
    });
  }
  const values: Record<string, string> = {
    title: message.title,
    content: message.content,
    link_url: message.linkUrl ?? '',
  };
  return template.replace(/\{\{\s*(title|content|link_url)\s*\}\}/g, (_m, name: string) =>
    jsonEscaped(values[name] ?? ''),
  );
}

/**
 * Standard Webhooks key: a `whsec_<base64>` secret is the base64-decoded bytes (what the
 * standard's libraries expect); any other secret is its UTF-8 bytes, so receivers configure their
 * library with `whsec_` + base64(secret).
 */
export function standardWebhookKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The signature headers over `signed` (the raw body; for GET the query string carrying the payload). */
export function signatureHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  signed: string,
): Record<string, string> {
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds) };
  if (!secret) return headers;
  const hex = createHmac('sha256', secret).update(signed).digest('hex');
  const standard = createHmac('sha256', standardWebhookKey(secret))
    .update(`${id}.${timestampSeconds}.${signed}`)
    .digest('base64');
  return {
    ...headers,
    'x-webhook-signature': `sha256=${hex}`,
    'x-webhook-signature-256': hex,
    'webhook-signature': `v1,${standard}`,
  };
}

/**
 * The generic webhook. POST sends the rendered body; GET has no body, so the payload travels as
 * the query parameters `title`, `content`, `link_url` and the signatures cover that query string.
 * Configured headers go first; the signature headers are ours and cannot be overridden. Any 2xx
 * is success.
 */
export async function sendWebhook(
  settings: WebhookSettings,
  message: ChannelMessage,
  context: SenderContext,
): Promise<void> {
  const url = await checkDestination(settings.webhook_url, context.http);
  const headers: Record<string, string> = {};
  const timestamp = Math.floor(context.now() / 1000);
  let body: string | undefined;
  let signed: string;
  if (settings.webhook_method === 'GET') {
    url.searchParams.set('title', message.title);
    url.searchParams.set('content', message.content);
    url.searchParams.set('link_url', message.linkUrl ?? '');
    signed = url.search.slice(1);
  } else {
    headers['content-type'] = 'application/json';
    body = renderWebhookBody(settings.webhook_body_template, message);
    signed = body;
  }
  for (const [name, value] of Object.entries(settings.webhook_headers)) headers[name.toLowerCase()] = value;
  Object.assign(headers, signatureHeaders(settings.webhook_secret, message.deliveryId, timestamp, signed));
  await sendHttp(
    url,
    { method: settings.webhook_method, headers, ...(body === undefined ? {} : { body }) },
    context.http,
  );
}
