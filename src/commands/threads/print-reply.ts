import type { KbClient } from '../../api/client.js';
import { TimeoutError } from '../../api/errors.js';
import type { Exchange } from '../../api/types.js';
import { MarkdownStream } from '../../chat/markdown-stream.js';
import { createRenderer, deferredRenderer, plainMarkdown, plainRenderer } from '../../chat/render.js';
import { runTurn, threadTarget } from '../../chat/turn.js';
import { CliError, ExitCode, Interrupted } from '../../errors.js';
import { unfinishedMark } from '../../io/format.js';
import type { Context } from '../../factory.js';
import { startSpinner } from '../../io/spinner.js';
import { formatDuration } from '../../util/duration.js';

/**
 * Posts `content` to a thread and prints the reply: its text (or with --json both messages).
 * With `stream` (beta), the text as it arrives, or with --jsonl one event object per line.
 * Ctrl-C stops the reply, and the service writing it (what arrived is kept), and exits 130.
 */
export async function printReply(
  ctx: Context,
  client: KbClient,
  threadId: string,
  content: string,
  options: { stream?: boolean },
): Promise<Exchange> {
  const stop = new AbortController();
  const release = ctx.signals.trap(() => stop.abort());
  const human = ctx.format === 'human';
  // On a terminal with colour, the reply drawn as Markdown while it arrives.
  const live =
    human && options.stream && ctx.output.forPeople && ctx.io.color.level > 0 ? liveReply(ctx) : undefined;
  const outcome = await runTurn(threadTarget(client, threadId), content, {
    signal: AbortSignal.any([stop.signal, ctx.signal]),
    stream: options.stream,
    onEvent:
      ctx.format === 'jsonl' || ctx.format === 'ids' ? (e) => ctx.output.event(e, () => '') : undefined,
    onText: live ? (text) => live.push(text) : human ? (text) => ctx.output.text(text) : undefined,
    waiting: () => waitingSpinner(ctx),
  }).finally(release);
  if (outcome.kind === 'replied') {
    const { exchange, streamed } = outcome;
    if (live && streamed) {
      const stored = exchange.aiResponse.content;
      await live.end(stored.startsWith(streamed) ? stored.slice(streamed.length) : '');
    } else if (human)
      ctx.output.text(`${streamed ? '' : await forTerminal(ctx, exchange.aiResponse.content)}\n`);
    else if (ctx.format === 'json' || !options.stream) ctx.output.record(exchange, []);
    return exchange;
  }
  if (outcome.streamed && live) {
    await live.end('', { echoed: outcome.kind === 'cancelled' && stop.signal.aborted });
    // As kb chat shows it: the mark of what the service kept under the reply so far.
    const mark = outcome.kind === 'cancelled' && outcome.kept && unfinishedMark(outcome.kept.aiResponse);
    if (mark) live.write(`${ctx.io.color.dim(mark)}\n\n`);
  } else if (outcome.streamed && human) ctx.output.text('\n');
  if (outcome.kind === 'cancelled') {
    if (!options.stream) throw new Interrupted();
    throw new Interrupted(
      false,
      outcome.kept || outcome.streamed
        ? 'cancelled: the reply so far is kept in the thread, marked incomplete'
        : 'cancelled before the reply started',
    );
  }
  if (outcome.error instanceof TimeoutError)
    throw new CliError(
      `${outcome.error.message}; the service may still have received the message`,
      ExitCode.unavailable,
      `check the thread with \`kb threads get ${threadId}\` before sending it again`,
    );
  throw outcome.error;
}

/**
 * A reply's text as `kb threads get` shows it on a terminal: Markdown's marks left out (a block
 * of code as its lines), wrapped at word boundaries; piped, as it is.
 */
async function forTerminal(ctx: Context, text: string): Promise<string> {
  if (!ctx.io.stdoutIsTTY) return text;
  const { wrapText } = await import('../../io/wrap-text.js');
  return wrapText(plainMarkdown(text), Math.max(20, ctx.io.columns - 2));
}

/** A reply drawn on the terminal as Markdown while it arrives (chat/markdown-stream.ts). */
function liveReply(ctx: Context) {
  const { io } = ctx;
  const renderer = deferredRenderer(
    () => createRenderer({ width: () => io.columns, raw: false, color: true }),
    plainRenderer(() => io.columns),
  );
  let started = false;
  const stdout = ctx.output.terminal as NodeJS.WritableStream & { rows?: number };
  const stream = new MarkdownStream(renderer, {
    write: (text) => void stdout.write(text),
    columns: () => io.columns,
    rows: () => stdout.rows ?? 24,
  });
  return {
    push(text: string) {
      const first = !started;
      started = true;
      stream.push(text);
      if (!first) return;
      // Loading the renderer takes the event loop ~200 ms: begun before the first text, it
      // would hold that text back (the local service's first piece comes in ~100 ms). Begun
      // once it is on screen, the next pieces wait for it instead; until it has loaded, they
      // are shown plainly, and drawn again rendered once it has (no piece may come for a while).
      setImmediate(() => void renderer.ready().then(() => stream.push('')));
    },
    /** Draws `rest` (what the service stored after the last piece), then closes the last block. */
    async end(rest = '', options: { echoed?: boolean } = {}) {
      if (rest) stream.push(rest);
      await renderer.ready();
      stream.end(options);
    },
    /** Decorated text under the reply (its mark). */
    write(text: string) {
      stdout.write(text);
    },
  };
}

/** `Waiting for the assistant… 3s` on a terminal, from the second second. */
function waitingSpinner(ctx: Context): { stop(): void } {
  const started = performance.now();
  const spinner = startSpinner(ctx.io, 'Waiting for the assistant…');
  const tick = setInterval(
    () => spinner.update(`Waiting for the assistant… ${formatDuration(performance.now() - started)}`),
    1000,
  );
  return {
    stop() {
      clearInterval(tick);
      spinner.stop();
    },
  };
}
