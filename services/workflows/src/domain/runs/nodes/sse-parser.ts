/**
 * Incremental Server-Sent Events framing (the WHATWG rules an OpenAI-compatible stream uses):
 * bytes in, one callback per event with its `data` lines joined by `\n`. Comments, `event:`,
 * `id:` and `retry:` lines are ignored.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(private readonly onEvent: (data: string) => void) {}

  push(chunk: Uint8Array): void {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    for (let end = this.lineEnd(); end >= 0; end = this.lineEnd()) {
      const line = this.buffer.slice(0, end);
      const skip = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + skip);
      this.line(line);
    }
  }

  /** The stream ended: a last event without its blank line still counts. */
  end(): void {
    if (this.buffer !== '') this.line(this.buffer);
    this.buffer = '';
    this.line('');
  }

  private lineEnd(): number {
    const cr = this.buffer.indexOf('\r');
    const lf = this.buffer.indexOf('\n');
    // A lone trailing \r may be the first half of \r\n: wait for the next chunk.
    if (cr >= 0 && (lf < 0 || cr < lf)) return cr === this.buffer.length - 1 ? -1 : cr;
    return lf;
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.onEvent(this.data.join('\n'));
      this.data = [];
    } else if (line.startsWith('data:')) {
      this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    }
  }
}
