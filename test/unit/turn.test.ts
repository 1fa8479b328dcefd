import { describe, expect, it, vi } from 'vitest';
import { AbortedError, ConnectionError } from '../../src/api/errors.js';
import type { StreamEvent } from '../../src/api/stream.js';
import type { Exchange } from '../../src/api/types.js';
import { runTurn, type TurnTarget } from '../../src/chat/turn.js';
import { CliError } from '../../src/errors.js';

const message = (role: 'user' | 'assistant', content: string) => ({
  id: `m_${role}`,
  role,
  content,
  createdAt: '2026-11-22T12:00:00Z',
});
const EXCHANGE: Exchange = {
  userMessage: message('user', 'Q'),
  aiResponse: message('assistant', 'An answer'),
};

/** A target whose stream yields `events`, then waits on the signal when `hang` (a reply still being written). */
function target(events: StreamEvent[], options: { hang?: boolean } = {}) {
  const calls = { send: 0, stream: 0, cancel: [] as string[] };
  const t: TurnTarget = {
    canStream: true,
    send: async () => {
      calls.send++;
      return EXCHANGE;
    },
    async *stream(_content, signal) {
      calls.stream++;
      for (const event of events) yield event;
      if (options.hang)
        await new Promise((_, reject) => {
          const stop = () => reject(new AbortedError('request cancelled'));
          if (signal.aborted) stop();
          else signal.addEventListener('abort', stop);
        });
    },
    cancel: async (id) => {
      calls.cancel.push(id);
      return { ...EXCHANGE, aiResponse: { ...EXCHANGE.aiResponse, content: 'An', incomplete: true } };
    },
  };
  return { t, calls };
}
const started: StreamEvent = { type: 'started', generationId: 'gen_1', threadId: 'thr_1' };
const delta = (seq: number, text: string): StreamEvent => ({ type: 'delta', seq, text });

describe('runTurn', () => {
  it('sends nothing when stopped before it starts', async () => {
    const { t, calls } = target([]);
    const outcome = await runTurn(t, 'Q', { signal: AbortSignal.abort(), stream: true });
    expect(outcome).toEqual({ kind: 'cancelled', streamed: '', sent: false });
    expect(calls).toMatchObject({ send: 0, stream: 0 });
  });

  it('streams the text, stops waiting once at the first piece, and ends with the stored exchange', async () => {
    const { t } = target([
      started,
      delta(1, 'An '),
      delta(2, 'answer'),
      { type: 'completed', seq: 3, exchange: EXCHANGE, streamed: true },
    ]);
    const stop = vi.fn();
    const texts: string[] = [];
    const outcome = await runTurn(t, 'Q', {
      signal: new AbortController().signal,
      stream: true,
      waiting: () => ({ stop }),
      onText: (text) => texts.push(text),
    });
    expect(outcome).toEqual({ kind: 'replied', exchange: EXCHANGE, streamed: 'An answer' });
    expect(texts).toEqual(['An ', 'answer']);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('sends and waits when not streaming, or when the target cannot stream', async () => {
    const { t, calls } = target([]);
    expect(await runTurn(t, 'Q', { signal: new AbortController().signal })).toMatchObject({
      kind: 'replied',
    });
    expect(
      await runTurn({ ...t, canStream: false }, 'Q', { signal: new AbortController().signal, stream: true }),
    ).toMatchObject({ kind: 'replied' });
    expect(calls).toMatchObject({ send: 2, stream: 0 });
  });

  it('stopped mid-reply, stops the service writing and returns what it kept', async () => {
    const { t, calls } = target([started, delta(1, 'An')], { hang: true });
    const stop = new AbortController();
    const outcome = runTurn(t, 'Q', { signal: stop.signal, stream: true, onText: () => stop.abort() });
    expect(await outcome).toMatchObject({
      kind: 'cancelled',
      streamed: 'An',
      sent: true,
      kept: { aiResponse: { incomplete: true } },
    });
    expect(calls.cancel).toEqual(['gen_1']);
  });

  it('returns a failed event, a stream that ends early and a thrown error as failures', async () => {
    const signal = new AbortController().signal;
    const failed = await runTurn(
      target([
        started,
        { type: 'failed', seq: 1, error: { code: 'thread_not_open', message: 'closed meanwhile' } },
      ]).t,
      'Q',
      { signal, stream: true },
    );
    expect(failed.kind === 'failed' && failed.error).toBeInstanceOf(CliError);
    expect(failed.kind === 'failed' && (failed.error as CliError).message).toBe('closed meanwhile');
    const ended = await runTurn(target([started, delta(1, 'An')]).t, 'Q', { signal, stream: true });
    expect(ended).toMatchObject({ kind: 'failed', streamed: 'An' });
    expect(ended.kind === 'failed' && ended.error).toBeInstanceOf(ConnectionError);
    const boom = new ConnectionError('refused');
    const thrown = await runTurn({ ...target([]).t, send: () => Promise.reject(boom) }, 'Q', { signal });
    expect(thrown).toEqual({ kind: 'failed', error: boom, streamed: '' });
  });
});
