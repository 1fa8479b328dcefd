import type { KbClient } from '../../api/client.js';
import type { ThreadWithMessages } from '../../api/types.js';
import { HistoryFile } from '../../chat/history.js';
import { chatFromLines } from '../../chat/pipe.js';
import { createRenderer, deferredRenderer, plainRenderer, rawRenderer } from '../../chat/render.js';
import { Repl } from '../../chat/repl.js';
import { type ChatClient, ChatSession, terminalSafe } from '../../chat/session.js';
import { LastThread, remembering } from '../../chat/last-thread.js';
import { AuthenticationError, NotFoundError, PermissionDeniedError } from '../../api/errors.js';
import { CliError, ExitCode, Interrupted } from '../../errors.js';
import type { Context } from '../../factory.js';
import { preloadSpinner, startSpinner } from '../../io/spinner.js';
import { sanitizeDeep, sanitizeField, streamSanitizer } from '../../util/sanitize.js';
import { wrapWords } from '../../util/wrap-words.js';

export interface StartOptions {
  threadId?: string;
  continue?: boolean;
  title?: string;
  raw?: boolean;
  /** No latency and size line after each reply. */
  quiet?: boolean;
  /** Piped: print each reply as it is written (beta). */
  stream?: boolean;
  /** Where input history is kept; none for the demo. */
  historyFile?: string;
  /** Where the thread used last is kept, for --continue; none for the demo. */
  lastThreadFile?: string;
  resumeCommand?: ((id: string) => string) | null;
  /** Paragraphs shown before the first prompt, instead of the usual one. */
  greeting?: string[];
}

/**
 * The thread to continue: the one this profile sent a message to last (already fetched), else
 * (or when it is gone) the newest one.
 */
async function threadToContinue(
  ctx: Context,
  client: ChatClient,
  last: LastThread | undefined,
): Promise<{ id: string; thread?: ThreadWithMessages }> {
  const remembered = last?.read();
  if (remembered) {
    try {
      const thread = await client.threads.get(remembered, ctx.signal);
      return { id: thread.id, thread };
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  const latest = await client.threads.list({ limit: 1, signal: ctx.signal });
  const id = latest.data[0]?.id;
  if (!id)
    throw new CliError('there is no thread to continue yet', ExitCode.notFound, 'start one with `kb chat`');
  return { id };
}

/** The REPL on a terminal, line-by-line chat otherwise. */
export async function startChat(ctx: Context, kbClient: KbClient, options: StartOptions): Promise<void> {
  const { io } = ctx;
  const last = options.lastThreadFile ? new LastThread(options.lastThreadFile) : undefined;
  const client = last ? remembering(kbClient, (id) => last.save(id)) : kbClient;
  const continued = options.continue ? await threadToContinue(ctx, client, last) : undefined;
  const threadId = continued?.id ?? options.threadId;

  if (!io.stdinIsTTY || !io.stdoutIsTTY) {
    // `kb chat | tee log`: typed lines are read, but there is no REPL to show a prompt.
    if (io.stdinIsTTY && io.stderrIsTTY)
      io.err(
        io.errColor.dim(
          'stdout is not a terminal: type one message per line; replies go to the pipe. Ctrl-D ends.\n',
        ),
      );
    const session = new ChatSession(client);
    if (threadId) await session.load(threadId, ctx.signal, continued?.thread);
    else session.startNew(options.title);
    let replying = -1;
    // The reply's text as one: an escape sequence split across two deltas is removed whole.
    let safe = streamSanitizer();
    await chatFromLines(session, io.stdin, {
      // Replies as text, a blank line between them; with --json or --jsonl one exchange per line, with its thread's id.
      onReply: (exchange, index) => {
        if (ctx.format === 'human')
          ctx.output.text(`${index > 0 ? '\n' : ''}${(exchange.aiResponse?.content ?? '').trimEnd()}\n`);
        // Each names its thread: a new thread's id is known only from the reply.
        else ctx.output.event({ threadId: session.id, ...exchange }, () => '');
      },
      // --stream: the text as it arrives (a blank line between replies), or every event.
      onEvent: options.stream
        ? (event, index) => {
            if (ctx.format !== 'human') return ctx.output.event(event, () => '');
            if (index > replying) {
              replying = index;
              safe = streamSanitizer();
              if (index > 0) ctx.output.text('\n');
            }
            if (event.type === 'delta') ctx.output.text(safe.push(event.text));
            else ctx.output.text(safe.end());
            if (event.type === 'completed' && !event.streamed)
              ctx.output.text(event.exchange.aiResponse.content);
            if (event.type === 'completed' || event.type === 'cancelled') ctx.output.text('\n');
          }
        : undefined,
      signal: ctx.signal,
    });
    return;
  }

  const historyFile = options.historyFile ? new HistoryFile(options.historyFile) : undefined;
  const history = historyFile?.load();
  if (history?.warning) ctx.warn(history.warning);
  const renderer = options.raw
    ? rawRenderer()
    : deferredRenderer(
        () => createRenderer({ width: () => io.columns, raw: false, color: io.color.level > 0 }),
        plainRenderer(() => io.columns),
      );
  const repl = new Repl({
    input: io.stdin,
    output: ctx.output.terminal,
    errOutput: io.stderr,
    terminal: true,
    client: terminalSafe(client),
    color: io.color,
    renderer,
    spinner: (text) => startSpinner(io, text),
    history:
      historyFile && history
        ? {
            entries: history.entries,
            add: (entry) => historyFile.add(entry, (err) => ctx.warn(`history not saved: ${err.message}`)),
            flush: () => historyFile.flush(),
          }
        : undefined,
    env: ctx.env,
    quiet: options.quiet,
    pickThread: async (threads, currentId) => {
      const { ask } = await import('../../io/prompt.js');
      try {
        return await ask(
          io,
          'a thread',
          (prompts, context) =>
            prompts.select(
              {
                message: 'Continue which thread? (Esc to go back)',
                choices: threads.map((t) => ({
                  name: `${t.id === currentId ? '● ' : '  '}${sanitizeField(t.title)}  ${io.color.dim(`${t.status} · ${t.id}${t.id === currentId ? ' · current' : ''}`)}`,
                  value: t.id,
                })),
                pageSize: 12,
              },
              context,
            ),
          { escape: true },
        );
      } catch (err) {
        // Esc or Ctrl-C in the picker goes back to the chat prompt.
        if (err instanceof Interrupted) return undefined;
        throw err;
      }
    },
    editor: async () => {
      const { editInEditor } = await import('../../chat/editor.js');
      return editInEditor(ctx.env);
    },
    resumeCommand: options.resumeCommand,
    columns: () => io.columns,
    // NO_COLOR, TERM=dumb or --raw: the text as it arrives, as a plain terminal shows it.
    liveMarkdown: !options.raw && io.color.level > 0,
  });
  // Plain words wrapped to the terminal (wrap-ansi would cost the prompt ~15 ms), then dimmed.
  const greeting =
    options.greeting ??
    (threadId ? [] : ['Ask anything about your workspace’s documents. /help for commands, Ctrl-D to leave.']);
  for (const paragraph of greeting)
    io.err(
      `${wrapWords(paragraph, io.columns - 1)
        .map((line) => io.errColor.dim(line))
        .join('\n')}\n`,
    );
  // A new chat sends nothing until the first message: check the key now, in the background,
  // so a wrong one is said at once rather than after the first question.
  if (!threadId)
    client.threads.list({ limit: 1 }).catch((err: unknown) => {
      if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) repl.warnNow(err);
    });
  // Markdown and the spinner load once the prompt is up (together ~250 ms of imports), while the
  // user types; a reply waits for the renderer if it comes first.
  setImmediate(() => {
    void renderer.ready?.();
    preloadSpinner(io);
  });
  // The REPL handles Ctrl-C itself (cancel a reply, clear the line); a SIGINT from outside, or
  // while an editor has the terminal, cancels the reply in flight and never ends the chat.
  const release = ctx.signals.trap(() => repl.cancel());
  const stopsGroup = io.stdinIsTTY ? ctx.signals.stopGroupOnSuspend() : undefined;
  try {
    // A thread fetched to continue it is shown as it is: no second request before the prompt.
    await repl.run({
      threadId,
      title: options.title,
      thread: continued?.thread && sanitizeDeep(continued.thread),
    });
  } finally {
    stopsGroup?.();
    release();
  }
}
