import { Hono } from 'hono';
import type { AppEnv, Service } from '../../context.js';
import { acceptedExchange, converse } from '../../conversation/conversation.js';
import type { Generation, GenerationEvent } from '../../conversation/generations.js';
import { announced } from '../exchange.js';
import { badRequest, notFound, ServiceError } from '../errors.js';
import { serviceErrorOf } from '../refusals.js';
import { MAX_CONTENT } from '../../state/model.js';
import { requiredString } from '../validate.js';

/** beta: a generation as GET /v1/generations/:id answers it (poll it instead of streaming). */
export function presentGeneration(g: Generation) {
  return {
    id: g.id,
    threadId: g.threadId,
    status: g.status,
    createdAt: g.createdAt,
    text: g.text,
    sequence: g.events.length,
    ...(g.exchange?.userMessage ? { userMessage: g.exchange.userMessage } : {}),
    ...(g.exchange?.aiResponse ? { aiResponse: g.exchange.aiResponse } : {}),
    ...(g.error ? { error: g.error } : {}),
  };
}

const TERMINAL = new Set<GenerationEvent['type']>(['completed', 'cancelled', 'failed']);

function sse(event: GenerationEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * The beta streaming interface (docs/local-service.md, "Streaming"): start a generation, read
 * its events as server-sent events (resumable with Last-Event-ID), poll it, cancel it.
 */
export function generationRoutes(service: Service) {
  const { store, generations } = service;
  const app = new Hono<AppEnv>();

  app.post('/threads/:id/generations', (c) => {
    const workspaceId = c.var.workspace.id;
    const thread = store.thread(workspaceId, c.req.param('id'));
    if (!thread) throw notFound('thread');
    const content = requiredString(c.var.body, 'content', MAX_CONTENT);
    if (thread.status !== 'OPEN')
      throw new ServiceError(
        409,
        'thread_not_open',
        `thread ${thread.id} is ${thread.status}; only OPEN threads accept messages`,
      );
    // Accepted is durable: the user's message and the reply pending are stored (fsynced) before 202.
    const accepted = acceptedExchange(thread.id, content);
    store.commit({ op: 'messages', messages: [accepted.userMessage, accepted.reply] });
    const generation = generations.create(workspaceId, thread.id);
    // The generation goes on whether or not anyone is reading it.
    converse(service, workspaceId, thread.id, content, {
      accepted,
      signal: generation.cancel.signal,
      onPiece: (text) => generations.push(generation, 'delta', { text }),
    }).then(
      (result) => {
        const { userMessage, aiResponse } = announced(service, workspaceId, thread.id, result);
        if (!aiResponse) {
          // Cancelled before its turn came: no reply was written, and none is stored.
          generation.exchange = { userMessage };
          return generations.finish(generation, 'cancelled', { userMessage, aiResponse: null });
        }
        generation.exchange = { userMessage, aiResponse };
        generations.finish(generation, result.cancelled ? 'cancelled' : 'completed', generation.exchange);
      },
      (err: unknown) => {
        const refused = serviceErrorOf(err);
        generation.error = refused
          ? { code: refused.code, message: refused.message }
          : { code: 'generation_failed', message: 'the reply could not be written' };
        generations.finish(generation, 'failed', { error: generation.error });
      },
    );
    c.header('location', `/v1/generations/${generation.id}`);
    return c.json({ data: presentGeneration(generation) }, 202);
  });

  app.get('/generations/:id', (c) => {
    const generation = generations.get(c.var.workspace.id, c.req.param('id'));
    if (!generation) throw notFound('generation');
    return c.json({ data: presentGeneration(generation) });
  });

  app.post('/generations/:id/cancel', async (c) => {
    const generation = generations.get(c.var.workspace.id, c.req.param('id'));
    if (!generation) throw notFound('generation');
    if (generation.status === 'in_progress') {
      const finished = new Promise<void>((resolve) =>
        generations.subscribe(generation, generation.events.length, (e) => TERMINAL.has(e.type) && resolve()),
      );
      generation.cancel.abort();
      await finished;
    }
    return c.json({ data: presentGeneration(generation) });
  });

  app.get('/generations/:id/events', (c) => {
    const generation = generations.get(c.var.workspace.id, c.req.param('id'));
    if (!generation) throw notFound('generation');
    const raw = c.req.header('last-event-id') ?? c.req.query('after') ?? '0';
    if (!/^\d+$/.test(raw.trim()))
      throw badRequest('Last-Event-ID (or after) must be an event number', 'invalid_cursor');
    const after = Number(raw);
    if (after > generation.events.length && generation.status !== 'in_progress')
      throw badRequest(
        `event ${after} is past the end: the generation ended with event ${generation.events.length}`,
        'invalid_cursor',
      );
    const dropAfter = c.get('dropAfter');
    const encoder = new TextEncoder();
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let sent = 0;
        let ended = false;
        const end = (drop: boolean) => {
          ended = true;
          stop();
          // A dropped connection, as a failing proxy would: the socket goes, mid-stream.
          if (drop) c.env.incoming.socket.destroy();
          controller.close();
        };
        stop = generations.subscribe(generation, after, (event) => {
          if (ended) return;
          controller.enqueue(encoder.encode(sse(event)));
          sent++;
          if (TERMINAL.has(event.type)) end(false);
          else if (dropAfter !== undefined && sent >= dropAfter) end(true);
        });
        if (ended) stop();
        // Nothing left to send (a resume after the last event): the stream ends at once.
        else if (generation.status !== 'in_progress') end(false);
      },
      cancel: () => stop(),
    });
    return new Response(body, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
    });
  });

  return app;
}
