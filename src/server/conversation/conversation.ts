import {
  citations,
  extractiveAnswer,
  nearestSources,
  notFound,
  type Reply,
  type Retrieval,
  retrieve,
  sourcesLine,
  sourcesOf,
} from '../answer/assistant.js';
import { generate, GeneratorFailed } from '../answer/generator.js';
import { smallTalk } from '../answer/small-talk.js';
import { now } from '../clock.js';
import type { Service } from '../context.js';
import { StorageError } from '../state/storage-error.js';
import { newId } from '../state/ids.js';
import type { MessageRecord } from '../state/model.js';

/** The messages of one exchange, as stored (http/ presents them and announces them). */
export interface StoredExchange {
  userMessage: MessageRecord;
  aiResponse: MessageRecord;
}

/** What an exchange came to: the reply (complete, or cancelled with what was written), or withdrawn. */
export type Conversed =
  | (StoredExchange & { cancelled: boolean; withdrawn?: false })
  /** Cancelled while it waited for its turn: nothing was written, and no reply is stored. */
  | { userMessage: MessageRecord; cancelled: true; withdrawn: true };

/** The thread was closed (or archived, or deleted) while its reply was written. */
export class ThreadNotOpen extends Error {
  readonly code = 'thread_not_open';
}

export interface ConverseOptions {
  /** Each piece of the reply as it is written (the streaming interface). */
  onPiece?: (text: string) => void;
  /** Cancels the reply: what was written is stored, marked incomplete. */
  signal?: AbortSignal;
  /**
   * The messages already stored when the exchange was accepted (a generation): the user's, and
   * the reply pending. Its text so far is saved as it is written, and it is completed at the end.
   */
  accepted?: { userMessage: MessageRecord; reply: MessageRecord };
}

/** How often the text so far of a reply being written is saved. */
const PROGRESS_MS = 1_000;

/** The user's message and a pending reply, to store when a generation is accepted. */
export function acceptedExchange(
  threadId: string,
  content: string,
): { userMessage: MessageRecord; reply: MessageRecord } {
  const createdAt = now();
  return {
    userMessage: { id: newId('msg'), threadId, role: 'user', content, createdAt },
    reply: { id: newId('msg'), threadId, role: 'assistant', content: '', createdAt, pending: true },
  };
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
    if (signal?.aborted) done();
    else signal?.addEventListener('abort', done, { once: true });
  });

/** What small talk retrieves: nothing, and nothing for a generator. */
const NOTHING_RETRIEVED: Retrieval = { hits: [], terms: [], passages: [], grounded: [] };

/**
 * One exchange in a thread, for the synchronous endpoint and for generations alike: the reply
 * to `content`, stored with the user's message once it is written (or cancelled); the caller
 * announces them (http/exchange.ts). Runs in the thread's turn, so a thread's messages are
 * stored in the order they were accepted. A thread closed meanwhile gets nothing (ThreadNotOpen).
 */
export function converse(
  service: Service,
  workspaceId: string,
  threadId: string,
  content: string,
  options?: Omit<ConverseOptions, 'accepted'>,
): Promise<Extract<Conversed, { withdrawn?: false }>>;
export function converse(
  service: Service,
  workspaceId: string,
  threadId: string,
  content: string,
  options: ConverseOptions,
): Promise<Conversed>;
export async function converse(
  service: Service,
  workspaceId: string,
  threadId: string,
  content: string,
  options: ConverseOptions = {},
): Promise<Conversed> {
  const { store } = service;
  const { accepted } = options;
  let started = false;
  let withdrawn = false;
  const turn = service.turns.run(threadId, async (): Promise<Conversed> => {
    started = true;
    if (withdrawn) return { userMessage: accepted!.userMessage, cancelled: true, withdrawn };
    const all = store.messages.get(threadId) ?? [];
    // What came before this exchange (a generation's own messages are already stored).
    const own = accepted ? all.findIndex((m) => m.id === accepted.userMessage.id) : -1;
    const history = own >= 0 ? all.slice(0, own) : all;
    const userMessage: MessageRecord = accepted?.userMessage ?? {
      id: newId('msg'),
      threadId,
      role: 'user',
      content,
      createdAt: now(),
    };
    let written = '';
    let saved = Date.now();
    /** A pending reply, completed with `changes`: through the one commit path, once. */
    const complete = (changes: Partial<MessageRecord>): MessageRecord => {
      const { pending: _, ...reply } = accepted!.reply;
      const message: MessageRecord = { ...reply, ...changes };
      store.commit({ op: 'messageUpdate', message });
      return message;
    };
    try {
      if (service.options.replyDelayMs > 0) await pause(service.options.replyDelayMs, options.signal);
      // A greeting or thanks is answered as such, not looked for in the documents.
      const talk = smallTalk(content);
      const retrieval =
        talk === undefined
          ? await retrieve(service, workspaceId, content, history, {
              threshold: service.options.relevanceThreshold,
              embeddings: service.embeddings,
            })
          : NOTHING_RETRIEVED;
      const extractive = talk === undefined ? extractiveAnswer(retrieval) : { content: talk, sources: [] };
      // "Not found" says so when files still to be read may hold the answer.
      if (talk === undefined && !extractive.sources.length)
        extractive.content = notFound(
          store.countIndexingFiles(workspaceId),
          store.countFailedFiles(workspaceId),
          nearestSources(retrieval.hits),
        );
      let reply: Reply = extractive;
      const emit = (piece: string) => {
        written += piece;
        options.onPiece?.(piece);
        if (accepted && Date.now() - saved >= PROGRESS_MS) {
          saved = Date.now();
          try {
            store.commit({ op: 'messageText', threadId, id: accepted.reply.id, content: written });
          } catch (err) {
            // Progress only: the completion is what must be stored.
            if (!(err instanceof StorageError)) throw err;
          }
        }
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
          reply = {
            content: text,
            sources,
            drawnFrom: retrieval.grounded.map((h) => h.chunk.id),
            incomplete: generated.incomplete,
          };
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
        if (accepted) complete({ content: written, incomplete: true });
        throw new ThreadNotOpen(
          `thread ${threadId} became ${current?.status ?? 'unavailable'} while the reply was written; ${accepted ? 'what was written is kept, marked incomplete' : 'nothing was stored'}`,
        );
      }
      const finished = {
        content: cancelled ? written : reply.content,
        sources: reply.sources,
        ...(reply.drawnFrom?.length ? { drawnFrom: reply.drawnFrom } : {}),
        ...(cancelled || reply.incomplete ? { incomplete: true } : {}),
      };
      let aiResponse: MessageRecord;
      if (accepted) aiResponse = complete(finished);
      else {
        aiResponse = { id: newId('msg'), threadId, role: 'assistant', createdAt: now(), ...finished };
        store.commit({ op: 'messages', messages: [userMessage, aiResponse] });
      }
      return { userMessage, aiResponse, cancelled };
    } catch (err) {
      // A reply accepted is never left pending: what was written is kept, marked incomplete.
      if (accepted && store.messages.get(threadId)?.some((m) => m.id === accepted.reply.id && m.pending)) {
        try {
          complete({ content: written, incomplete: true });
        } catch {
          // left pending: completed as incomplete at the next start
        }
      }
      throw err;
    }
  });
  return accepted && options.signal ? withdrawnOr(turn, options.signal) : turn;

  /**
   * The turn's result, unless `signal` aborts while the exchange still waits for its turn: then
   * at once, with its pending reply withdrawn (a cancelled reply that was never started is not
   * stored as an empty one), and the turn, when it comes, does nothing.
   */
  function withdrawnOr(turn: Promise<Conversed>, signal: AbortSignal): Promise<Conversed> {
    if (started) return turn;
    return new Promise<Conversed>((resolve, reject) => {
      const withdraw = () => {
        if (started) return;
        try {
          store.commit({ op: 'messageDeleted', threadId, id: accepted!.reply.id });
        } catch (err) {
          // Not withdrawn: the turn runs and stores what it writes (nothing), as before.
          if (err instanceof StorageError) return;
          return reject(err);
        }
        withdrawn = true;
        resolve({ userMessage: accepted!.userMessage, cancelled: true, withdrawn });
      };
      if (signal.aborted) withdraw();
      else signal.addEventListener('abort', withdraw, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', withdraw));
    });
  }
}
