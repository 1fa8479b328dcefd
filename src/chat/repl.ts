import { createInterface, type Interface } from 'node:readline';
import type { ChalkInstance } from 'chalk';
import type { Message, Thread, ThreadWithMessages } from '../api/types.js';
import { colorStatus } from '../io/format.js';
import type { Spinner } from '../io/spinner.js';
import { roleLabel } from '../io/format.js';
import { ConflictError, ConnectionError, RateLimitError, ServerError, TimeoutError } from '../api/errors.js';
import { describeError } from '../report.js';
import { formatDuration } from '../util/duration.js';
import { sanitizeField, sanitizeText } from '../util/sanitize.js';
import { MessageAssembler } from './assembler.js';
import { enableReverseSearch } from './reverse-search.js';
import type { Renderer } from './render.js';
import type { ChatClient } from './session.js';
import { ChatSession } from './session.js';
import { SlashRegistry } from './slash/registry.js';

export interface ReplOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  errOutput: NodeJS.WritableStream;
  /** Line editing, history, Tab completion, bracketed paste: only on a terminal. */
  terminal: boolean;
  client: ChatClient;
  color: ChalkInstance;
  renderer: Renderer;
  spinner?: (text: string) => Spinner;
  /** Input history: entries newest first, and where each new message is recorded as it is sent. */
  history?: { entries: string[]; add(entry: string): void; flush(): Promise<void> };
  /** Lets the user pick one of `threads` (the current one marked). */
  pickThread?: (threads: Thread[], currentId: string | undefined) => Promise<string | undefined>;
  /** The environment, for /copy (DISPLAY, WAYLAND_DISPLAY) and /more (PAGER). */
  env?: NodeJS.ProcessEnv;
  /** No latency and size line after each reply. */
  quiet?: boolean;
  editor?: () => Promise<string | undefined>;
  /** How to resume a thread from the shell, printed on exit; null when it cannot be (the demo). */
  resumeCommand?: ((id: string) => string) | null;
  /** The terminal's width now, for text the REPL lays out itself (/help). */
  columns?: () => number;
  /** Messages shown when resuming a thread. */
  showLast?: number;
}

const SILENT_SPINNER: Spinner = { update() {}, stop() {} };

/** Whether sending the same message again could succeed: not for a closed thread, a bad key or invalid input. */
function retryable(err: unknown): boolean {
  return (
    err instanceof ConnectionError ||
    err instanceof TimeoutError ||
    err instanceof ServerError ||
    err instanceof RateLimitError
  );
}

/** The interactive chat: reads messages and slash commands, shows rendered replies. */
export class Repl {
  readonly session: ChatSession;
  readonly commands = new SlashRegistry();
  readonly color: ChalkInstance;
  #rl: Interface | undefined;
  #historyLines: string[];
  readonly #assembler = new MessageAssembler();
  readonly #queue: { line: string; pasted: boolean; queued: boolean }[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  #suspended = false;
  #pasting = false;
  #busy = false;
  #current: AbortController | undefined;

  constructor(private readonly options: ReplOptions) {
    this.session = new ChatSession(options.client);
    this.color = options.color;
    this.#historyLines = [...(options.history?.entries ?? [])];
  }

  /** The terminal's width now. */
  columns(): number {
    return this.options.columns?.() ?? 80;
  }

  get client(): ChatClient {
    return this.options.client;
  }

  get env(): NodeJS.ProcessEnv {
    return this.options.env ?? {};
  }

  /** The last reply of this conversation, if any. */
  lastReply(): Message | undefined {
    return [...this.session.messages].reverse().find((m) => m.role === 'assistant');
  }

  get busy(): boolean {
    return this.#busy;
  }

  print(text: string): void {
    this.options.output.write(text);
  }

  writeRaw(text: string): void {
    this.options.output.write(text);
  }

  warn(text: string): void {
    this.options.errOutput.write(`${this.color.yellow(text)}\n`);
  }

  /** Reports an error found in the background (a refused key), above the prompt. */
  warnNow(err: unknown): void {
    this.options.errOutput.write('\r\u001b[2K');
    this.#report(err);
    this.#prompt();
  }

  /** A signal for one operation; Ctrl-C aborts it. */
  signal(): AbortSignal {
    this.#current = new AbortController();
    return this.#current.signal;
  }

  /** Cancels the request in flight, if any. Returns whether there was one. */
  cancel(): boolean {
    if (!this.#busy || !this.#current) return false;
    this.#current.abort();
    return true;
  }

  /** Runs until Ctrl-D, /exit or the end of input. */
  async run(start: { threadId?: string; title?: string; thread?: ThreadWithMessages } = {}): Promise<void> {
    if (start.threadId) await this.resume(start.threadId, start.thread);
    else this.session.startNew(start.title);
    this.#open();
    if (this.options.terminal) this.options.output.write('\u001b[?2004h');
    try {
      for (;;) {
        const next = await this.#next();
        if (!next) break;
        const message = this.#assembler.push(next.line, next.pasted);
        if (message === undefined) {
          this.#prompt();
          continue;
        }
        // Typed while a reply was pending: its line was never shown at a prompt, so it is now.
        if (next.queued && message.trim())
          this.print(
            `${this.options.terminal ? '\r\u001b[2K' : ''}${this.#promptText()}${sanitizeText(message)}\n`,
          );
        this.#remember(message);
        const result = await this.#handle(message);
        if (result === 'exit') break;
        this.#prompt();
      }
    } finally {
      if (this.options.terminal) this.options.output.write(`${this.#closed ? '\n' : ''}\u001b[?2004l`);
      this.#close();
      await this.options.history?.flush();
      if (this.session.id && this.options.resumeCommand !== null) {
        const command = this.options.resumeCommand?.(this.session.id) ?? `kb chat ${this.session.id}`;
        this.options.errOutput.write(`${this.color.dim(`Resume this conversation with: ${command}`)}\n`);
      }
    }
  }

  /** One history entry per message, however many lines it took: Up recalls it whole. */
  #remember(message: string) {
    if (!message.trim()) return;
    const existing = this.#historyLines.indexOf(message);
    if (existing !== -1) this.#historyLines.splice(existing, 1);
    this.#historyLines.unshift(message);
    this.#historyLines.length = Math.min(this.#historyLines.length, 500);
    this.options.history?.add(message);
  }

  async #handle(message: string): Promise<'exit' | undefined> {
    const trimmed = message.trim();
    if (!trimmed) return undefined;
    if (trimmed.startsWith('/') && !trimmed.includes('\n')) {
      const [name = '', ...rest] = trimmed.slice(1).split(/\s+/);
      const command = this.commands.find(name);
      if (!command) {
        const suggestion = this.commands.suggest(name);
        this.warn(
          `unknown command /${sanitizeField(name)}${suggestion ? ` (did you mean /${suggestion}?)` : ''}; /help lists them`,
        );
        return undefined;
      }
      this.#busy = true;
      try {
        return (await command.run(this, rest.join(' '))) ?? undefined;
      } catch (err) {
        this.#report(err);
        return undefined;
      } finally {
        this.#busy = false;
        this.#current = undefined;
      }
    }
    await this.sendMessage(trimmed);
    return undefined;
  }

  /** Sends a message and shows the reply; failures are reported and can be retried. */
  async sendMessage(content: string): Promise<void> {
    if (this.session.canStream) return this.#streamMessage(content);
    this.#busy = true;
    const signal = this.signal();
    const started = performance.now();
    const thinking = this.#thinking(started);
    try {
      const exchange = await this.session.send(content, signal);
      thinking.stop();
      await this.options.renderer.ready?.();
      this.#showReply(exchange.aiResponse);
      this.#sizeLine(started, exchange.aiResponse);
    } catch (err) {
      thinking.stop();
      if (signal.aborted) {
        this.warn('Cancelled. The service may still finish this reply; /history will show it.');
      } else this.#sendFailed(err);
    } finally {
      thinking.stop();
      this.#busy = false;
      this.#current = undefined;
    }
  }

  /** A message that could not be sent: the error, and /retry where sending again could help. */
  #sendFailed(err: unknown) {
    this.#report(err);
    if (retryable(err)) this.options.errOutput.write(`${this.color.dim('Type /retry to send it again.')}\n`);
  }

  /** `Thinking… 1.2s  Ctrl-C to cancel` on stderr until stopped (stopping twice is harmless). */
  #thinking(started: number): { stop(): void } {
    const spinner = this.options.spinner ? this.options.spinner('Thinking…') : SILENT_SPINNER;
    const tick = setInterval(
      () =>
        spinner.update(
          `Thinking… ${formatDuration(performance.now() - started)}  ${this.color.dim('Ctrl-C to cancel')}`,
        ),
      100,
    );
    return {
      stop() {
        clearInterval(tick);
        spinner.stop();
      },
    };
  }

  /**
   * Sends a message and shows the reply as it is written (beta streaming interface): the text
   * as it arrives, then, once complete, the same text rendered as Markdown in its place. Ctrl-C
   * stops the service writing and keeps what arrived.
   */
  async #streamMessage(content: string): Promise<void> {
    this.#busy = true;
    const signal = this.signal();
    const started = performance.now();
    const thinking = this.#thinking(started);
    let generationId: string | undefined;
    let streamed = '';
    try {
      for await (const event of this.session.stream(content, signal)) {
        if (event.type === 'started') generationId = event.generationId;
        else if (event.type === 'delta') {
          if (!streamed) {
            thinking.stop();
            this.print(`\n${roleLabel(this.color, 'assistant')}\n`);
          }
          streamed += event.text;
          this.print(event.text);
        } else if (event.type === 'completed' || event.type === 'cancelled') {
          thinking.stop();
          await this.options.renderer.ready?.();
          if (streamed) this.#replaceStreamed(streamed, event.exchange.aiResponse);
          else this.#showReply(event.exchange.aiResponse);
          this.#sizeLine(started, event.exchange.aiResponse);
          if (event.type === 'cancelled')
            this.warn('This reply was cancelled; what was written is kept, marked incomplete.');
        } else if (event.type === 'failed') {
          thinking.stop();
          if (streamed) this.print('\n');
          this.#report(new Error(event.error.message));
        }
      }
    } catch (err) {
      thinking.stop();
      if (streamed) this.print('\n');
      if (signal.aborted) {
        const kept = generationId
          ? await this.client.threads.cancelGeneration?.(generationId).catch(() => undefined)
          : undefined;
        if (kept) this.session.messages.push(kept.userMessage, kept.aiResponse);
        this.warn(
          kept
            ? 'Cancelled: the service stopped writing; the reply so far is kept in the thread, marked incomplete.'
            : 'Cancelled. The service may still finish this reply; /history will show it.',
        );
      } else this.#sendFailed(err);
    } finally {
      thinking.stop();
      this.#busy = false;
      this.#current = undefined;
    }
  }

  /** Replaces the plain text streamed so far with the rendered reply, when it is all still on screen. */
  #replaceStreamed(streamed: string, reply: Message) {
    const columns = Math.max(1, this.columns());
    const rows = streamed
      .split('\n')
      .reduce((n, line) => n + Math.max(1, Math.ceil(line.length / columns)), 0);
    const screenRows = (this.options.output as { rows?: number }).rows ?? 24;
    if (!this.options.terminal || rows >= screenRows - 1) {
      this.print('\n\n');
      return;
    }
    // To the start of the streamed text, then clear to the end of the screen.
    this.print(`\r${rows > 1 ? `\u001b[${rows - 1}A` : ''}\u001b[J${this.renderReply(reply)}\n`);
  }

  #sizeLine(started: number, reply: Message) {
    if (this.options.quiet) return;
    const words = (reply.content ?? '').split(/\s+/).filter(Boolean).length;
    this.options.errOutput.write(
      `${this.color.dim(`${formatDuration(performance.now() - started)} · ${words} word${words === 1 ? '' : 's'}`)}\n`,
    );
  }

  #showReply(reply: Message) {
    this.print(`\n${roleLabel(this.color, 'assistant')}\n${this.renderReply(reply)}\n`);
  }

  /** A reply as it is shown: rendered Markdown, or as received with --raw. */
  renderReply(reply: Message): string {
    return this.options.renderer.render(reply.content ?? '');
  }

  /**
   * Prints messages as a transcript. With `waitForMarkdown` false (resuming a thread), what is
   * not rendered yet is shown plainly, so the prompt comes sooner.
   */
  async showMessages(messages: Message[], waitForMarkdown = true): Promise<void> {
    if (waitForMarkdown) await this.options.renderer.ready?.();
    for (const message of messages) {
      const body =
        message.role === 'assistant'
          ? this.options.renderer.render(message.content ?? '')
          : `${sanitizeText(message.content ?? '')}\n`;
      this.print(`${roleLabel(this.color, message.role)}\n${body}\n`);
    }
  }

  /** Continues an existing thread (fetched, unless it just was), showing its last messages. */
  async resume(id: string, loaded?: ThreadWithMessages): Promise<void> {
    const thread = await this.session.load(id, this.signal(), loaded);
    const count = thread.messages.length;
    this.print(
      `${this.color.bold(sanitizeField(thread.title ?? ''))} ${this.color.dim(`· ${thread.id} ·`)} ${colorStatus(this.color, String(thread.status))} ${this.color.dim(`· ${count} message${count === 1 ? '' : 's'}`)}\n\n`,
    );
    const shown = thread.messages.slice(-(this.options.showLast ?? 6));
    if (shown.length < count)
      this.print(
        this.color.dim(
          `… ${count - shown.length} earlier message${count - shown.length === 1 ? '' : 's'} (/history ${count} shows all)\n\n`,
        ),
      );
    await this.showMessages(shown, false);
    if (thread.status !== 'OPEN')
      this.warn(
        `This thread is ${thread.status}: the service will refuse new messages. /new starts a new conversation.`,
      );
  }

  async pickThread(): Promise<string | undefined> {
    const page = await this.options.client.threads.list({ limit: 20, signal: this.signal() });
    if (page.data.length === 0) {
      this.print(this.color.dim('No threads yet.\n'));
      return undefined;
    }
    if (!this.options.pickThread) {
      this.print(
        `${page.data.map((t) => `${t.id === this.session.id ? '● ' : '  '}${t.id}  ${sanitizeField(t.title)}  ${t.status}`).join('\n')}\n`,
      );
      this.print(this.color.dim('Continue one with /switch <id>.\n'));
      return undefined;
    }
    return this.suspendWhile(() => this.options.pickThread!(page.data, this.session.id));
  }

  async editMessage(): Promise<string | undefined> {
    if (!this.options.editor) {
      this.warn('no editor available here');
      return undefined;
    }
    return this.suspendWhile(this.options.editor);
  }

  /** Hands the terminal to something else (a picker, an editor), then takes it back. */
  async suspendWhile<T>(action: () => Promise<T>): Promise<T> {
    this.#suspended = true;
    this.#close();
    try {
      return await action();
    } finally {
      this.#suspended = false;
      this.#open(false);
    }
  }

  #report(err: unknown) {
    const report = describeError(err);
    this.options.errOutput.write(`${this.color.red('error:')} ${report.message}\n`);
    const hint = err instanceof ConflictError ? '/new starts a new conversation' : report.hint;
    if (hint) this.options.errOutput.write(`${this.color.dim(`hint: ${hint}`)}\n`);
  }

  #promptText(): string {
    return this.#assembler.pending
      ? this.color.dim('... ')
      : `${this.color.cyan.bold('you')} ${this.color.dim('›')} `;
  }

  #prompt() {
    if (!this.#rl || this.#closed) return;
    this.#rl.setPrompt(this.#promptText());
    this.#rl.prompt();
  }

  #open(prompt = true) {
    const rl = createInterface({
      input: this.options.input,
      output: this.options.terminal ? this.options.output : undefined,
      terminal: this.options.terminal,
      // readline keeps no history of its own (it would keep each line of a multi-line
      // message): Up and Ctrl-R walk the REPL's list of whole messages.
      historySize: 0,
      completer: (line: string, callback: (err: null, result: [string[], string]) => void) => {
        if (/^\/(switch|open) /.test(line))
          void this.#completeThread(line).then((result) => callback(null, result));
        else callback(null, this.commands.complete(line));
      },
      tabSize: 2,
    });
    (rl as unknown as { history: string[] }).history = this.#historyLines;
    this.#rl = rl;
    rl.on('line', (line) => {
      const queued = this.#busy;
      if (queued && line.trim())
        this.options.errOutput.write(`${this.color.dim(`  ↳ queued: ${sanitizeField(line)}`)}\n`);
      this.#queue.push({ line, pasted: this.#pasting, queued });
      this.#wake?.();
    });
    rl.on('SIGINT', () => this.#interrupt());
    // Back from Ctrl-Z: readline paused the input, which would leave nothing to wait for and
    // end the process; prompting again resumes it.
    rl.on('SIGCONT', () => this.#prompt());
    rl.on('close', () => {
      if (this.#suspended) return;
      this.#closed = true;
      this.#wake?.();
    });
    if (this.options.terminal) {
      this.options.input.on('keypress', this.#onKeypress);
      enableReverseSearch(rl);
    }
    if (prompt) this.#prompt();
  }

  #threadCache: { at: number; threads: Thread[] } | undefined;

  /** Tab after `/switch `: the thread ids that start with what was typed; several are listed with their titles. */
  async #completeThread(line: string): Promise<[string[], string]> {
    const [command, typed = ''] = line.split(/\s+/, 2);
    try {
      if (!this.#threadCache || Date.now() - this.#threadCache.at > 30_000)
        this.#threadCache = {
          at: Date.now(),
          threads: (await this.options.client.threads.list({ limit: 100 })).data,
        };
    } catch {
      return [[], line];
    }
    const matches = this.#threadCache.threads.filter((t) => t.id.startsWith(typed));
    if (matches.length === 1) return [[`${command} ${matches[0]!.id} `], line];
    if (matches.length > 1) {
      const rows = matches.map(
        (t) => `${t.id === this.session.id ? '● ' : '  '}${t.id}  ${this.color.dim(sanitizeField(t.title))}`,
      );
      this.print(`\n${rows.join('\n')}\n`);
      this.#rl?.prompt(true);
    }
    return [[], line];
  }

  readonly #onKeypress = (_: unknown, key: { name?: string } | undefined) => {
    if (key?.name === 'paste-start') this.#pasting = true;
    else if (key?.name === 'paste-end') this.#pasting = false;
  };

  #close() {
    const rl = this.#rl;
    if (!rl) return;
    this.options.input.removeListener('keypress', this.#onKeypress);
    rl.close();
    this.#rl = undefined;
  }

  #interrupt() {
    if (this.cancel()) return;
    const rl = this.#rl;
    if (this.#assembler.pending || (rl && rl.line.length > 0)) {
      this.#assembler.reset();
      rl?.write(null, { ctrl: true, name: 'u' });
      this.options.output.write('\n');
      this.#prompt();
      return;
    }
    this.options.output.write(`\n${this.color.dim('(To leave, press Ctrl-D or type /exit)')}\n`);
    this.#prompt();
  }

  async #next(): Promise<{ line: string; pasted: boolean; queued: boolean } | undefined> {
    for (;;) {
      const item = this.#queue.shift();
      if (item) return item;
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}
