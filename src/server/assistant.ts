import { citation } from '../util/citation.js';
import type { Chunk, MessageRecord } from './model.js';
import type { Hit } from './search.js';
import type { Store } from './store.js';

export interface Reply {
  content: string;
  sources: string[];
}

export interface GeneratorOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

const MIN_SCORE_RATIO = 0.25;

function terms(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
}

/** The best chunks for a message, also using the thread's last user message as context. */
/** How much the previous question counts when ranking a follow-up's hits, against 1 for the question itself. */
const FOLLOW_UP_WEIGHT = 0.5;

export function retrieve(
  store: Store,
  workspaceId: string,
  message: string,
  history: MessageRecord[],
): Hit[] {
  const index = store.index(workspaceId);
  const previous = [...history].reverse().find((m) => m.role === 'user');
  let hits = index.search(message, 6);
  if (previous && hits.length) {
    // The previous question helps rank the hits of a follow-up ("and on Enterprise?"), at
    // half the weight of what is asked now: a follow-up that names a new subject ("does SSO
    // work with Okta?") keeps its own best match. It never brings in a chunk that matches
    // nothing the user asked now.
    const steered = new Map(
      index.search(`${message} ${previous.content}`, 12).map((h) => [h.chunk.id, h.score] as const),
    );
    const bestDirect = hits[0]!.score;
    const bestSteered = Math.max(...steered.values(), Number.MIN_VALUE);
    const weight = (h: Hit) =>
      h.score / bestDirect + FOLLOW_UP_WEIGHT * ((steered.get(h.chunk.id) ?? 0) / bestSteered);
    hits = [...hits].sort((a, b) => weight(b) - weight(a));
  }
  const best = hits[0]?.score ?? 0;
  return hits.filter((h) => h.score >= best * MIN_SCORE_RATIO);
}

/** An answer made of the sentences from the retrieved chunks that best match the question. */
export function extractiveAnswer(message: string, hits: Hit[]): Reply {
  if (hits.length === 0) {
    return {
      content:
        "I couldn't find anything about that in this workspace's documents. Try rephrasing, or check that the relevant files have finished indexing (`kb files list`).",
      sources: [],
    };
  }
  const wanted = terms(message);
  for (const hit of hits) for (const t of hit.terms) wanted.add(t.toLowerCase());
  const scored: { sentence: string; score: number; order: number; chunk: Chunk }[] = [];
  const seen = new Set<string>();
  hits.forEach((hit, rank) => {
    const sentences = hit.chunk.text.split(/(?<=[.!?])\s+|\n+/);
    sentences.forEach((sentence, position) => {
      const clean = sentence.trim();
      // Headings and questions (as in a FAQ) make poor answers.
      if (clean.length < 20 || seen.has(clean) || clean.endsWith('?') || !/[.!]$/.test(clean)) return;
      seen.add(clean);
      let overlap = 0;
      for (const t of terms(clean)) if (wanted.has(t)) overlap++;
      if (overlap === 0) return;
      scored.push({
        sentence: clean,
        score: overlap / (1 + rank * 0.5),
        order: rank * 1000 + position,
        chunk: hit.chunk,
      });
    });
  });
  const chosen = scored
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .sort((a, b) => a.order - b.order);
  const picked = chosen.length
    ? chosen
    : [{ sentence: hits[0]!.chunk.text.slice(0, 400), chunk: hits[0]!.chunk }];
  const sources = citations(picked.map((p) => p.chunk));
  const body = picked.map((p) => p.sentence).join(' ');
  return {
    content: `${body}\n\nSources: ${sources.map((s) => `[${s}]`).join(', ')}`,
    sources,
  };
}

/** The files behind the hits, once each: what a generated answer cites. */
function sourcesOf(hits: Hit[]): string[] {
  return citations(hits.map((h) => h.chunk));
}

/** One citation per file, in the order first drawn on, naming the pages drawn on (`manual.pdf pp. 3–4`). */
export function citations(chunks: Chunk[]): string[] {
  const pages = new Map<string, number[]>();
  for (const chunk of chunks) {
    const list = pages.get(chunk.filename) ?? [];
    if (chunk.pages)
      for (let p = chunk.pages[0]; p <= chunk.pages[1] && p - chunk.pages[0] < 1000; p++) list.push(p);
    pages.set(chunk.filename, list);
  }
  return [...pages].map(([file, list]) => citation(file, list));
}

/** The line a generated answer ends with, naming the files it drew on. */
function sourcesLine(sources: string[]): string {
  return `\n\nSources: ${sources.map((s) => `[${s}]`).join(', ')}`;
}

/** A chat-completions request grounded in the hits and the thread's last messages. */
function completion(
  options: GeneratorOptions,
  message: string,
  hits: Hit[],
  history: MessageRecord[],
  extra: { stream?: boolean; signal?: AbortSignal } = {},
): Promise<Response> {
  const context = hits.map((h, i) => `[${i + 1}] (${citations([h.chunk])[0]})\n${h.chunk.text}`).join('\n\n');
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
  return fetch(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: options.model,
      ...(extra.stream ? { stream: true } : {}),
      messages: [
        {
          role: 'system',
          content: `Answer only from the workspace documents below and cite file names in brackets. If they do not cover the question, say so.\n\n${context || '(no relevant documents)'}`,
        },
        ...history.slice(-6).map((m) => ({ role: m.role, content: m.content })),
        { role: 'user', content: message },
      ],
    }),
    signal: extra.signal ? AbortSignal.any([extra.signal, timeout]) : timeout,
  });
}

/** An answer from an OpenAI-compatible chat-completions endpoint, grounded in the same chunks. */
export async function generatedAnswer(
  options: GeneratorOptions,
  message: string,
  hits: Hit[],
  history: MessageRecord[],
): Promise<Reply> {
  const sources = sourcesOf(hits);
  const response = await completion(options, message, hits, history);
  if (!response.ok) throw new Error(`generator answered ${response.status}`);
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  const content = body.choices?.[0]?.message?.content?.trim();
  if (!content) throw new Error('generator returned no content');
  return { content: sources.length ? `${content}${sourcesLine(sources)}` : content, sources };
}

/**
 * The generator's answer, streamed (`stream: true`): each piece of text goes to `onPiece` as
 * the endpoint sends it (server-sent events of chat.completion.chunk). Resolves with the whole
 * answer; cancelled through `signal`, it resolves with what was written.
 */
export async function streamedAnswer(
  options: GeneratorOptions,
  message: string,
  hits: Hit[],
  history: MessageRecord[],
  onPiece: (text: string) => void,
  signal?: AbortSignal,
): Promise<Reply> {
  const sources = sourcesOf(hits);
  const response = await completion(options, message, hits, history, { stream: true, signal });
  if (!response.ok || !response.body) throw new Error(`generator answered ${response.status}`);
  let text = '';
  let pending = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const data = /^data:\s?(.*)$/.exec(line.trim())?.[1];
        if (!data || data === '[DONE]') continue;
        const piece = (JSON.parse(data) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]
          ?.delta?.content;
        if (piece) {
          text += piece;
          onPiece(piece);
        }
      }
    }
  } catch (err) {
    if (!signal?.aborted) throw err;
  }
  if (!text.trim() && !signal?.aborted) throw new Error('generator returned no content');
  if (sources.length && !signal?.aborted) {
    // As the synchronous answer ends: the files it drew on.
    const tail = sourcesLine(sources);
    text = text.trimEnd() + tail;
    onPiece(tail);
  }
  return { content: text, sources };
}
