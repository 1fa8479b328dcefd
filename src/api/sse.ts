/** One server-sent event. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Splits a text/event-stream into events as its bytes arrive (WHATWG HTML, "server-sent
 * events"): fields `id`, `event`, `data` (several data lines are joined with newlines), comment
 * lines ignored, an event ended by a blank line. Chunks may split anything, UTF-8 included.
 */
export class SseParser {
  readonly #decoder = new TextDecoder();
  #pending = '';
  #event: { id?: string; event?: string; data: string[] } = { data: [] };

  push(chunk: Uint8Array): SseEvent[] {
    this.#pending += this.#decoder.decode(chunk, { stream: true });
    const lines = this.#pending.split(/\r\n|\r|\n/);
    this.#pending = lines.pop() ?? '';
    const events: SseEvent[] = [];
    for (const line of lines) {
      if (line === '') {
        if (this.#event.data.length || this.#event.event)
          events.push({
            id: this.#event.id,
            event: this.#event.event ?? 'message',
            data: this.#event.data.join('\n'),
          });
        this.#event = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.#event.data.push(value);
      else if (field === 'event') this.#event.event = value;
      else if (field === 'id') this.#event.id = value;
    }
    return events;
  }
}
