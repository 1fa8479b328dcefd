import { citations, extractiveAnswer, type Reply, retrieve, sourcesLine, sourcesOf } from './assistant.js';
import { generate, GeneratorFailed } from './generator.js';
import { now } from './clock.js';
import type { Service } from './context.js';
import { ServiceError } from './http-errors.js';
import { newId } from './ids.js';
import type { MessageRecord } from './model.js';
import { presentMessage } from './present.js';

export interface Exchange {
  userMessage: ReturnType<typeof presentMessage>;
  aiResponse: ReturnType<typeof presentMessage>;
}

export interface ConverseOptions {
  /** Each piece of the reply as it is written (the streaming interface). */
  onPiece?: (text: string) => void;
  /** Cancels the reply: what was written is stored, marked incomplete. */
  signal?: AbortSignal;
}

/** Words at a time: how the extractive assistant's answer is streamed. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

/** Waits `ms`, or less when `signal` aborts; never rejects. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * One exchange in a thread, for the synchronous endpoint and for generations alike: the reply
 * to `content`, stored with the user's message once it is written (or cancelled), then one
 * thread.message.created per message. Runs in the thread's turn, so a thread's messages are
 * stored in the order they were accepted. A thread closed meanwhile gets nothing (409).
 */
export async function converse(
  service: Service,
  workspaceId: string,
  threadId: string,
  content: string,
  options: ConverseOptions = {},
): Promise<Exchange & { cancelled: boolean }> {
  const { store } = service;
  const result = await service.turns.run(threadId, async () => {
    const history = store.messages.get(threadId) ?? [];
    const userMessage: MessageRecord = {
      id: newId('msg'),
      threadId,
      role: 'user',
      content,
      createdAt: now(),
    };
    if (service.options.replyDelayMs > 0) await pause(service.options.replyDelayMs, options.signal);
    const retrieval = await retrieve(store, workspaceId, content, history, {
      threshold: service.options.relevanceThreshold,
      embeddings: service.embeddings,
    });
    const extractive = extractiveAnswer(retrieval);
    let written = '';
    let reply: Reply = extractive;
    const emit = (piece: string) => {
      written += piece;
      options.onPiece?.(piece);
    };
    const generator = service.options.generator;
    // Nothing answers the question: "not found", without asking a generator to make something up.
    if (generator && retrieval.grounded.length) {
      const sources = sourcesOf(retrieval.grounded);
      try {
        const generated = await generate(
          generator,
          { message: content, hits: retrieval.grounded, history, cite: (h) => citations([h.chunk])[0]! },
          { onPiece: options.onPiece && emit, signal: options.signal },
        );
        const aborted = options.signal?.aborted;
        if (generated.reason && !aborted)
          service.options.notice?.(
            `generator ${generator.baseUrl}: ${generated.reason}; the reply is marked incomplete`,
          );
        // As the extractive answer ends: the files it drew on.
        const tail = sources.length && !aborted ? sourcesLine(sources) : '';
        if (options.onPiece && tail) emit(tail);
        const text = options.onPiece ? written : generated.text.trim() + tail;
        reply = { content: text, sources, incomplete: generated.incomplete };
      } catch (err) {
        if (!(err instanceof GeneratorFailed)) throw err;
        service.options.notice?.(
          `generator ${generator.baseUrl}: ${err.message}; answered from the documents instead`,
        );
      }
    }
    if (options.onPiece && !written) {
      for (const piece of pieces(reply.content)) {
        if (options.signal?.aborted) break;
        emit(piece);
        if (service.options.streamDelayMs > 0) await pause(service.options.streamDelayMs, options.signal);
      }
    }
    const cancelled = Boolean(options.signal?.aborted);
    const current = store.thread(workspaceId, threadId);
    if (current?.status !== 'OPEN') {
      throw new ServiceError(
        409,
        'thread_not_open',
        `thread ${threadId} became ${current?.status ?? 'unavailable'} while the reply was written; nothing was stored`,
      );
    }
    const aiResponse: MessageRecord = {
      id: newId('msg'),
      threadId,
      role: 'assistant',
      content: cancelled ? written : reply.content,
      createdAt: now(),
      sources: reply.sources,
      ...(cancelled || reply.incomplete ? { incomplete: true } : {}),
    };
    store.commit({ op: 'messages', messages: [userMessage, aiResponse] });
    return { userMessage: presentMessage(userMessage), aiResponse: presentMessage(aiResponse), cancelled };
  });
  // One event per message created: the user's, then the assistant's.
  for (const message of [result.userMessage, result.aiResponse])
    service.deliverer.emit(workspaceId, 'thread.message.created', { threadId, message });
  return result;
}
