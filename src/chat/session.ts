import type { Exchange, Message, Thread, ThreadWithMessages } from '../api/types.js';
import { titleFrom } from './assembler.js';

/** What the chat needs from the client; tests can pass a fake. */
export interface ChatClient {
  threads: {
    create(params: { title?: string }, signal?: AbortSignal): Promise<Thread>;
    get(id: string, signal?: AbortSignal): Promise<ThreadWithMessages>;
    send(id: string, content: string, signal?: AbortSignal): Promise<Exchange>;
    list(params?: { limit?: number; status?: string; signal?: AbortSignal }): Promise<{ data: Thread[] }>;
  };
}

/** The conversation in progress: a thread created lazily on the first message. */
export class ChatSession {
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
    this.pendingTitle = title?.trim() || undefined;
  }

  async load(id: string, signal?: AbortSignal): Promise<ThreadWithMessages> {
    const thread = await this.client.threads.get(id, signal);
    this.thread = thread;
    this.messages = [...thread.messages];
    this.pendingTitle = undefined;
    return thread;
  }

  async send(content: string, signal?: AbortSignal): Promise<Exchange> {
    this.lastUserMessage = content;
    if (!this.thread) {
      this.thread = await this.client.threads.create(
        { title: this.pendingTitle ?? titleFrom(content) },
        signal,
      );
      this.pendingTitle = undefined;
    }
    const exchange = await this.client.threads.send(this.thread.id, content, signal);
    this.messages.push(exchange.userMessage, exchange.aiResponse);
    return exchange;
  }
}
