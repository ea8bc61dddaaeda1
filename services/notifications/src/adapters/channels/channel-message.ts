import type { ChannelMessage } from '../../domain/delivery/delivery-ports.js';

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character (vendors count bytes). */
export function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let end = Math.min(text.length, maxBytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end)) > maxBytes - 3) end -= 1;
  // Do not leave half a surrogate pair behind.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Markdown body shared by DingTalk and WeCom: a heading, the content, the link. */
export function markdownBody(message: ChannelMessage): string {
  const link = message.linkUrl ? `\n\n[${message.linkUrl}](${message.linkUrl})` : '';
  return `### ${message.title}\n\n${message.content}${link}`;
}
