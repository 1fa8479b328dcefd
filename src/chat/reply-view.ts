import type { ChalkInstance } from 'chalk';
import { ConflictError, ConnectionError, RateLimitError, ServerError, TimeoutError } from '../api/errors.js';
import type { Message, ThreadWithMessages } from '../api/types.js';
import { colorStatus, roleLabel, unfinishedMark } from '../io/format.js';
import { describeError } from '../report.js';
import { sanitizeField, sanitizeText } from '../util/sanitize.js';
import type { Spinner } from '../io/spinner.js';
import { formatDuration } from '../util/duration.js';
import { MarkdownStream } from './markdown-stream.js';
import type { Renderer } from './render.js';
import type { TurnOutcome } from './turn.js';

/** Whether sending the same message again could succeed: not for a closed thread, a bad key or invalid input. */
function retryable(err: unknown): boolean {
  return (
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ServerError ||
    err instanceof RateLimitError
  );
}

export interface ReplyViewOptions {
  output: NodeJS.WritableStream;
  errOutput: NodeJS.WritableStream;
  terminal: boolean;
  color: ChalkInstance;
  renderer: Renderer;
  spinner?: (text: string) => Spinner;
  /** No latency and size line after each reply. */
  quiet?: boolean;
  columns: () => number;
  /** Streamed replies drawn as Markdown while they arrive (a terminal with colour, not --raw). */
  liveMarkdown?: boolean;
}

/** One reply's text shown as it arrives. */
export interface ReplyStream {
  /** Drawn as Markdown while it arrives: end() closes it. */
  readonly live: boolean;
  write(text: string): void;
  /** The reply ended or was stopped: its last block is closed (once the renderer has loaded). */
  end(): Promise<void>;
}

/**
 * How the REPL shows a conversation: a reply waited for, streamed, then rendered with its size;
 * a thread's header and transcript; an error and its hint.
 */
export class ReplyView {
  constructor(private readonly options: ReplyViewOptions) {}

  /** `Thinking… 1.2s  Ctrl-C to cancel` on stderr until stopped (stopping twice is harmless). */
  thinking(): { stop(): void } {
    const started = performance.now();
    const spinner = this.options.spinner?.('Thinking…');
    if (!spinner) return { stop() {} };
    const { color } = this.options;
    const tick = setInterval(
      () =>
        spinner.update(
          `Thinking… ${formatDuration(performance.now() - started)}  ${color.dim('Ctrl-C to cancel')}`,
        ),
      100,
    );
    let stopped = false;
    return {
      stop() {
        if (stopped) return;
        stopped = true;
        clearInterval(tick);
        spinner.stop();
      },
    };
  }

  /**
   * For one reply: shows each piece of its text as it arrives, under its label from the first;
   * with `liveMarkdown`, drawn as Markdown block by block (markdown-stream.ts), else as received.
   */
  streamer(): ReplyStream {
    const { output, color } = this.options;
    let started = false;
    const live = this.options.liveMarkdown
      ? new MarkdownStream(this.options.renderer, {
          write: (text) => void output.write(text),
          columns: () => this.options.columns(),
          rows: () => (output as { rows?: number }).rows ?? 24,
        })
      : undefined;
    return {
      live: Boolean(live),
      write: (text) => {
        if (!text) return;
        if (!started) output.write(`\n${roleLabel(color, 'assistant')}\n`);
        started = true;
        if (live) live.push(text);
        else output.write(text);
      },
      end: async () => {
        if (!live || !started) return;
        await this.options.renderer.ready?.();
        live.end();
      },
    };
  }

  /** How a turn ended: the reply, or the error (and /retry where it could help), or what a cancel kept. */
  async outcome(outcome: TurnOutcome, started: number, stream?: ReplyStream): Promise<void> {
    if (outcome.kind === 'replied')
      return this.finished(outcome.exchange.aiResponse, outcome.streamed, started, stream);
    if (outcome.kind === 'failed') {
      if (stream?.live) await stream.end();
      else if (outcome.streamed) this.options.output.write('\n');
      return this.error(outcome.error, retryable(outcome.error));
    }
    // Stopped: what was drawn stays, its last block closed, the mark of what the service kept under it.
    if (stream?.live && outcome.streamed) {
      await stream.end();
      if (outcome.kept) {
        this.options.output.write(`${this.#mark(outcome.kept.aiResponse)}\n`);
        this.#sizeLine(started, outcome.kept.aiResponse);
      } else this.options.output.write('\n');
    } else if (outcome.kept) await this.finished(outcome.kept.aiResponse, outcome.streamed, started);
    else if (outcome.streamed) this.options.output.write('\n');
    const said = !outcome.sent
      ? 'Cancelled before it was sent.'
      : outcome.kept
        ? 'Cancelled: the service stopped writing; the reply so far is kept in the thread, marked incomplete.'
        : 'Cancelled. The service may still finish this reply; /history will show it.';
    this.options.errOutput.write(`${this.options.color.yellow(said)}\n`);
  }

  /**
   * Shows the finished reply: drawn as it arrived (with what the service wrote after it, if
   * anything), or in place of the plain text streamed so far when it is all still on screen
   * (rendered as Markdown), else whole; marked when it did not finish.
   */
  async finished(reply: Message, streamed: string, started: number, stream?: ReplyStream): Promise<void> {
    await this.options.renderer.ready?.();
    if (!streamed) this.options.output.write(`\n${roleLabel(this.options.color, 'assistant')}\n`);
    const rows = this.#rowsOf(streamed);
    const screenRows = (this.options.output as { rows?: number }).rows ?? 24;
    const content = reply.content ?? '';
    if (streamed && stream?.live) {
      if (content.startsWith(streamed)) stream.write(content.slice(streamed.length));
      await stream.end();
      this.options.output.write(`${this.#mark(reply)}\n`);
    } else if (!streamed) this.options.output.write(`${this.render(reply)}\n`);
    else if (!this.options.terminal || rows >= screenRows - 1)
      this.options.output.write(`\n${this.#mark(reply)}\n`);
    // To the start of the streamed text, then clear to the end of the screen.
    else
      this.options.output.write(`\r${rows > 1 ? `\u001b[${rows - 1}A` : ''}\u001b[J${this.render(reply)}\n`);
    this.#sizeLine(started, reply);
  }

  /** A reply as it is shown: rendered Markdown (or as received with --raw), its mark under it. */
  render(reply: Message): string {
    return `${this.options.renderer.render(reply.content ?? '')}${this.#mark(reply)}`;
  }

  /**
   * Prints messages as a transcript. With `waitForMarkdown` false (resuming a thread), what is
   * not rendered yet is shown plainly, so the prompt comes sooner.
   */
  async transcript(messages: Message[], waitForMarkdown = true): Promise<void> {
    if (waitForMarkdown) await this.options.renderer.ready?.();
    for (const message of messages) {
      const body =
        message.role === 'assistant' ? this.render(message) : `${sanitizeText(message.content ?? '')}\n`;
      this.options.output.write(`${roleLabel(this.options.color, message.role)}\n${body}\n`);
    }
  }

  /** A resumed thread: its title, id, status and size, and how many earlier messages are not shown. */
  threadHeader(thread: ThreadWithMessages, shown: number): void {
    const { color } = this.options;
    const count = thread.messages.length;
    const earlier = count - shown;
    this.options.output.write(
      `${color.bold(sanitizeField(thread.title ?? ''))} ${color.dim(`· ${thread.id} ·`)} ${colorStatus(color, String(thread.status))} ${color.dim(`· ${count} message${count === 1 ? '' : 's'}`)}\n\n` +
        (earlier > 0
          ? color.dim(
              `… ${earlier} earlier message${earlier === 1 ? '' : 's'} (/history ${count} shows all)\n\n`,
            )
          : ''),
    );
  }

  /** An error on stderr, with its hint, and with `retry`, how to send the message again. */
  error(err: unknown, retry = false): void {
    const { color, errOutput } = this.options;
    const report = describeError(err);
    errOutput.write(`${color.red('error:')} ${report.message}\n`);
    const hint = err instanceof ConflictError ? '/new starts a new conversation' : report.hint;
    if (hint) errOutput.write(`${color.dim(`hint: ${hint}`)}\n`);
    if (retry) errOutput.write(`${color.dim('Type /retry to send it again.')}\n`);
  }

  #mark(reply: Message): string {
    const mark = unfinishedMark(reply);
    return mark ? `${this.options.color.dim(mark)}\n` : '';
  }

  #rowsOf(text: string): number {
    const columns = Math.max(1, this.options.columns());
    return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / columns)), 0);
  }

  #sizeLine(started: number, reply: Message) {
    if (this.options.quiet) return;
    const words = (reply.content ?? '').split(/\s+/).filter(Boolean).length;
    this.options.errOutput.write(
      `${this.options.color.dim(`${formatDuration(performance.now() - started)} · ${words} word${words === 1 ? '' : 's'}`)}\n`,
    );
  }
}
