import { createParser, type EventSourceParser } from 'eventsource-parser';

/**
 * Server-Sent Events framing of an OpenAI-compatible stream, by `eventsource-parser` (the WHATWG
 * rules): bytes in, one callback per event with its `data` lines joined by `\n`. Comments,
 * `event:`, `id:` and `retry:` lines are ignored. This class only decodes the bytes and adds the
 * end of stream rule.
 */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;

  constructor(onEvent: (data: string) => void) {
    this.parser = createParser({ onEvent: (event) => onEvent(event.data) });
  }

  push(chunk: Uint8Array): void {
    this.parser.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    this.parser.feed('\n\n');
  }
}
