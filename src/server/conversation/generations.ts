import { newId } from '../state/ids.js';
import { now } from '../clock.js';
import type { Exchange } from '../../api/types.js';

/** beta: the state of an asynchronous generation (docs/local-service.md, "Streaming"). */
export type GenerationStatus = 'in_progress' | 'completed' | 'cancelled' | 'failed';

/** One event of a generation's stream, numbered from 1. */
export interface GenerationEvent {
  seq: number;
  type: 'delta' | 'completed' | 'cancelled' | 'failed';
  data: unknown;
}

export interface Generation {
  id: string;
  workspaceId: string;
  threadId: string;
  status: GenerationStatus;
  createdAt: string;
  /** The reply written so far. */
  text: string;
  events: GenerationEvent[];
  /** Once finished: the messages stored (no aiResponse when it was cancelled before its turn). */
  exchange?: Pick<Exchange, 'userMessage'> & Partial<Pick<Exchange, 'aiResponse'>>;
  error?: { code: string; message: string };
  readonly cancel: AbortController;
  readonly listeners: Set<(event: GenerationEvent) => void>;
}

/** How long a finished generation can still be read or resumed. */
const KEEP_FINISHED_MS = 10 * 60 * 1000;

/**
 * The generations of the streaming interface (beta). Invariant: a generation's events are
 * appended in order and never change, so a reader that has seen event N gets exactly N+1, N+2,
 * ... whether it reads live, replays, or resumes after a dropped connection.
 */
export class Generations {
  readonly #all = new Map<string, Generation>();

  create(workspaceId: string, threadId: string): Generation {
    const generation: Generation = {
      id: newId('gen'),
      workspaceId,
      threadId,
      status: 'in_progress',
      createdAt: now(),
      text: '',
      events: [],
      cancel: new AbortController(),
      listeners: new Set(),
    };
    this.#all.set(generation.id, generation);
    return generation;
  }

  get(workspaceId: string, id: string): Generation | undefined {
    const generation = this.#all.get(id);
    return generation?.workspaceId === workspaceId ? generation : undefined;
  }

  /** Appends an event and hands it to every reader. */
  push(generation: Generation, type: GenerationEvent['type'], data: unknown): void {
    const event = { seq: generation.events.length + 1, type, data };
    generation.events.push(event);
    if (type === 'delta') generation.text += (data as { text: string }).text;
    for (const listener of generation.listeners) listener(event);
  }

  finish(generation: Generation, status: Exclude<GenerationStatus, 'in_progress'>, data: unknown): void {
    generation.status = status;
    this.push(generation, status, data);
    setTimeout(() => this.#all.delete(generation.id), KEEP_FINISHED_MS).unref();
  }

  /**
   * Events numbered above `after`, then each new one; returns the way to stop listening. The
   * terminal event comes whatever `after` says, so a reader resuming past the end still learns
   * that the generation is over.
   */
  subscribe(generation: Generation, after: number, listener: (event: GenerationEvent) => void): () => void {
    for (const event of generation.events.slice(Math.max(0, after))) listener(event);
    if (generation.status !== 'in_progress') return () => {};
    const live = (event: GenerationEvent) => (event.seq > after || event.type !== 'delta') && listener(event);
    generation.listeners.add(live);
    return () => generation.listeners.delete(live);
  }
}
