import { sanitizeDeep, streamSanitizer } from '../util/sanitize.js';
import type { StreamEvent } from '../api/stream.js';
import type { Exchange, KbFile, Message, Thread, ThreadWithMessages } from '../api/types.js';
import { titleFrom } from '../util/title.js';
import type { TurnTarget } from './turn.js';

/** What the chat needs from the client; tests can pass a fake. */
export interface ChatClient {
  threads: {
    create(params: { title?: string }, signal?: AbortSignal): Promise<Thread>;
    get(id: string, signal?: AbortSignal): Promise<ThreadWithMessages>;
    send(id: string, content: string, signal?: AbortSignal): Promise<Exchange>;
    list(params?: { limit?: number; status?: string; signal?: AbortSignal }): Promise<{ data: Thread[] }>;
    /** An extension some services lack: a title or status change. */
    update?(id: string, changes: { title?: string; status?: string }, signal?: AbortSignal): Promise<Thread>;
    /** beta: the reply as it is written (the client falls back where the service lacks it). */
    stream?(id: string, params: { content: string; signal?: AbortSignal }): AsyncIterable<StreamEvent>;
    cancelGeneration?(generationId: string): Promise<Exchange | undefined>;
  };
  files?: {
    /** The list's pages until `want` files (Infinity: all of them). */
    pages(params: { want: number; signal?: AbortSignal }): AsyncIterable<{ data: KbFile[] }>;
  };
}

/**
 * The same client, with every record it returns sanitised for a terminal: what the REPL holds
 * (titles, statuses, times, messages) is only ever shown there.
 */
export function terminalSafe(client: ChatClient): ChatClient {
  const { threads, files } = client;
  return {
    threads: {
      create: async (params, signal) => sanitizeDeep(await threads.create(params, signal)),
      get: async (id, signal) => sanitizeDeep(await threads.get(id, signal)),
      send: async (id, content, signal) => sanitizeDeep(await threads.send(id, content, signal)),
      list: async (params) => sanitizeDeep(await threads.list(params)),
      update:
        threads.update &&
        (async (id, changes, signal) => sanitizeDeep(await threads.update!(id, changes, signal))),
      stream:
        threads.stream &&
        async function* (id, params) {
          // Each delta's text as part of the whole: a sequence split across two is removed whole.
          const safe = streamSanitizer();
          for await (const event of threads.stream!(id, params)) {
            if (event.type === 'delta') {
              const text = safe.push(event.text);
              if (text) yield { ...event, text };
              continue;
            }
            const rest = safe.end();
            if (rest) yield { type: 'delta', seq: 'seq' in event ? event.seq : -1, text: rest };
            yield sanitizeDeep(event);
          }
          const rest = safe.end();
          if (rest) yield { type: 'delta', seq: -1, text: rest };
        },
      cancelGeneration:
        threads.cancelGeneration && (async (id) => sanitizeDeep(await threads.cancelGeneration!(id))),
    },
    files: files && {
      pages: async function* (params) {
        for await (const page of files.pages(params)) yield sanitizeDeep(page);
      },
    },
  };
}

/** The conversation in progress: a thread created lazily on the first message. A turn's target. */
export class ChatSession implements TurnTarget {
  thread: Thread | undefined;
  messages: Message[] = [];
  /** The last message the user tried to send, for /retry. */
  lastUserMessage: string | undefined;
  pendingTitle: string | undefined;

  constructor(private readonly client: ChatClient) {}

  get id(): string | undefined {
    return this.thread?.id;
  }

  startNew(title?: string): void {
    this.thread = undefined;
    this.messages = [];
    // /retry re-sends into the thread it failed in, never into another one.
    this.lastUserMessage = undefined;
    this.pendingTitle = title?.trim() || undefined;
  }

  async load(id: string, signal?: AbortSignal, loaded?: ThreadWithMessages): Promise<ThreadWithMessages> {
    const thread = loaded ?? (await this.client.threads.get(id, signal));
    if (thread.id !== this.thread?.id) this.lastUserMessage = undefined;
    this.thread = thread;
    this.messages = [...thread.messages];
    this.pendingTitle = undefined;
    return thread;
  }

  /** Whether replies can be watched as they are written. */
  get canStream(): boolean {
    return typeof this.client.threads.stream === 'function';
  }

  /** As send, yielding the reply's events as it is written (beta). */
  async *stream(content: string, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const thread = await this.#threadFor(content, signal);
    for await (const event of this.client.threads.stream!(thread.id, { content, signal })) {
      if (event.type === 'completed' || event.type === 'cancelled') this.#keep(event.exchange);
      yield event;
    }
  }

  /** Stops a generation on the service; what it kept joins the conversation. */
  async cancel(generationId: string): Promise<Exchange | undefined> {
    const kept = await this.client.threads.cancelGeneration?.(generationId);
    this.#keep(kept);
    return kept;
  }

  #keep(exchange: Exchange | undefined) {
    if (exchange) this.messages.push(exchange.userMessage, exchange.aiResponse);
  }

  /** The thread `content` goes to (created with the first message, titled from it); remembers it for /retry. */
  async #threadFor(content: string, signal?: AbortSignal): Promise<Thread> {
    this.lastUserMessage = content;
    if (!this.thread) {
      this.thread = await this.client.threads.create(
        { title: this.pendingTitle ?? titleFrom(content) },
        signal,
      );
      this.pendingTitle = undefined;
    }
    return this.thread;
  }

  async send(content: string, signal?: AbortSignal): Promise<Exchange> {
    const thread = await this.#threadFor(content, signal);
    const exchange = await this.client.threads.send(thread.id, content, signal);
    this.#keep(exchange);
    return exchange;
  }
}
