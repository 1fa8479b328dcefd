/** One server-sent event. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** The longest line, and the largest event, a stream may send (a reply is at most 32,000 characters). */
export const MAX_SSE_LINE = 8 * 1024 * 1024;
export const MAX_SSE_EVENT = 64 * 1024 * 1024;

/** A stream that broke the limits above: no event of it is trusted. */
export class SseLimitError extends Error {
  override name = 'SseLimitError';
}

/**
 * Splits a text/event-stream into events as its bytes arrive (WHATWG HTML, "server-sent
 * events"): fields `id`, `event`, `data` (several data lines are joined with newlines), comment
 * lines ignored, an event ended by a blank line. Chunks may split anything, UTF-8 included.
 * Linear in the bytes (a chunk is searched once for line ends) and bounded: a line longer than
 * MAX_SSE_LINE or an event larger than MAX_SSE_EVENT throws SseLimitError.
 */
export class SseParser {
  readonly #decoder = new TextDecoder();
  /** The start of a line whose end has not come yet, in pieces. */
  #partial: string[] = [];
  #partialLength = 0;
  #event: { id?: string; event?: string; data: string[] } = { data: [] };
  #eventLength = 0;
  /** The last chunk ended in \r: a \n starting the next one ends nothing more. */
  #afterCr = false;

  push(chunk: Uint8Array): SseEvent[] {
    let text = this.#decoder.decode(chunk, { stream: true });
    if (this.#afterCr && text.startsWith('\n')) text = text.slice(1);
    this.#afterCr = false;
    const events: SseEvent[] = [];
    const ends = /\r\n|\r|\n/g;
    let start = 0;
    for (let match = ends.exec(text); match; match = ends.exec(text)) {
      // A \r at the very end may be the first half of \r\n.
      if (match[0] === '\r' && match.index === text.length - 1) this.#afterCr = true;
      this.#partial.push(text.slice(start, match.index));
      this.#line(this.#partial.join(''), events);
      this.#partial = [];
      this.#partialLength = 0;
      start = ends.lastIndex;
    }
    if (start < text.length) {
      this.#partial.push(text.slice(start));
      this.#partialLength += text.length - start;
      if (this.#partialLength > MAX_SSE_LINE)
        throw new SseLimitError(`the event stream sent a line longer than ${MAX_SSE_LINE} characters`);
    }
    return events;
  }

  #line(line: string, events: SseEvent[]): void {
    if (line.length > MAX_SSE_LINE)
      throw new SseLimitError(`the event stream sent a line longer than ${MAX_SSE_LINE} characters`);
    if (line === '') {
      if (this.#event.data.length || this.#event.event)
        events.push({
          id: this.#event.id,
          event: this.#event.event ?? 'message',
          data: this.#event.data.join('\n'),
        });
      this.#event = { data: [] };
      this.#eventLength = 0;
      return;
    }
    if (line.startsWith(':')) return;
    this.#eventLength += line.length;
    if (this.#eventLength > MAX_SSE_EVENT)
      throw new SseLimitError(`the event stream sent an event larger than ${MAX_SSE_EVENT} characters`);
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') this.#event.data.push(value);
    else if (field === 'event') this.#event.event = value;
    else if (field === 'id') this.#event.id = value;
  }
}
