import type { ChalkInstance } from 'chalk';
import type { Message, Thread, ThreadWithMessages } from '../api/types.js';
import type { Spinner } from '../io/spinner.js';
import { sanitizeField, sanitizeText } from '../util/sanitize.js';
import { MessageAssembler } from './assembler.js';
import { type InputLine, LineInput } from './line-input.js';
import type { Renderer } from './render.js';
import { ReplyView } from './reply-view.js';
import { type ChatClient, ChatSession } from './session.js';
import type { ChatContext } from './slash/command.js';
import { SlashRegistry } from './slash/registry.js';
import { ThreadCompleter } from './thread-completer.js';
import { runTurn } from './turn.js';

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
  /** Streamed replies drawn as Markdown while they arrive (a terminal with colour, not --raw). */
  liveMarkdown?: boolean;
}

/**
 * The interactive chat: reads messages and slash commands, shows replies. A line's turn starts
 * when Enter is pressed: from then until its reply ends, Ctrl-C stops it; only an idle prompt
 * asks about leaving.
 */
export class Repl implements ChatContext {
  readonly session: ChatSession;
  readonly commands = new SlashRegistry();
  readonly color: ChalkInstance;
  readonly #assembler = new MessageAssembler();
  readonly #input: LineInput;
  readonly #view: ReplyView;
  readonly #threads: ThreadCompleter;
  #busy = false;
  #current: AbortController | undefined;

  constructor(private readonly options: ReplOptions) {
    this.session = new ChatSession(options.client);
    this.color = options.color;
    this.#view = new ReplyView({ ...options, columns: () => this.columns() });
    this.#threads = new ThreadCompleter(options.client, () => this.session.id, options.color);
    this.#input = new LineInput({
      input: options.input,
      output: options.output,
      terminal: options.terminal,
      history: options.history,
      complete: (line) =>
        /^\/(switch|open) /.test(line)
          ? this.#threads.complete(line, (listing) => {
              this.print(listing);
              this.#input.redraw();
            })
          : this.commands.complete(line),
      // Enter: the line's turn starts now, unless another is under way (then it waits in the queue).
      onLine: (line) => {
        if (this.#busy) return;
        this.#busy = true;
        this.#current = line.abort;
      },
      onInterrupt: () => this.#interrupt(),
      onContinue: () => this.#prompt(),
    });
  }

  columns(): number {
    return this.options.columns?.() ?? 80;
  }

  get client(): ChatClient {
    return this.options.client;
  }

  get env(): NodeJS.ProcessEnv {
    return this.options.env ?? {};
  }

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
    this.#view.error(err);
    this.#prompt();
  }

  signal(): AbortSignal {
    return (this.#current ??= new AbortController()).signal;
  }

  /** Stops what the last line entered started, if it is still going. Returns whether there was one. */
  cancel(): boolean {
    if (!this.#busy || !this.#current) return false;
    this.#current.abort();
    return true;
  }

  /** Runs until Ctrl-D, /exit or the end of input. */
  async run(start: { threadId?: string; title?: string; thread?: ThreadWithMessages } = {}): Promise<void> {
    if (start.threadId) await this.resume(start.threadId, start.thread);
    else this.session.startNew(start.title);
    this.#input.open();
    this.#prompt();
    if (this.options.terminal) this.options.output.write('\u001b[?2004h');
    try {
      for (;;) {
        const next = await this.#input.next();
        if (!next) break;
        if ((await this.#take(next)) === 'exit') break;
        this.#prompt();
      }
    } finally {
      if (this.options.terminal) this.options.output.write(`${this.#input.closed ? '\n' : ''}\u001b[?2004l`);
      this.#input.close();
      await this.options.history?.flush();
      if (this.session.id && this.options.resumeCommand !== null) {
        const command = this.options.resumeCommand?.(this.session.id) ?? `kb chat ${this.session.id}`;
        this.options.errOutput.write(`${this.color.dim(`Resume this conversation with: ${command}`)}\n`);
      }
    }
  }

  async #take(next: InputLine): Promise<'exit' | undefined> {
    this.#busy = true;
    this.#current = next.abort;
    try {
      const message = this.#assembler.push(next.line, next.pasted);
      if (message === undefined) return undefined;
      // Typed while a reply was on screen: its line was never shown at a prompt, so it is now.
      if (next.queued && message.trim())
        this.print(
          `${this.options.terminal ? '\r\u001b[2K' : ''}${this.#promptText()}${sanitizeText(message)}\n`,
        );
      this.#input.remember(message);
      return await this.#handle(message.trim());
    } finally {
      this.#busy = false;
      this.#current = undefined;
    }
  }

  async #handle(message: string): Promise<'exit' | undefined> {
    if (!message) return undefined;
    if (!message.startsWith('/') || message.includes('\n')) return void (await this.sendMessage(message));
    const [name = '', ...rest] = message.slice(1).split(/\s+/);
    const command = this.commands.find(name);
    if (!command) {
      const suggestion = this.commands.suggest(name);
      this.warn(
        `unknown command /${sanitizeField(name)}${suggestion ? ` (did you mean /${suggestion}?)` : ''}; /help lists them`,
      );
      return undefined;
    }
    try {
      return (await command.run(this, rest.join(' '))) ?? undefined;
    } catch (err) {
      this.#view.error(err);
      return undefined;
    }
  }

  /**
   * Sends a message and shows the reply: as it is written where the service streams (drawn as
   * Markdown block by block, or with --raw as received), else whole. While it is on screen, what is typed waits
   * on the input line below it. Failures are reported and can be retried.
   */
  async sendMessage(content: string): Promise<void> {
    const started = performance.now();
    this.#input.hold();
    try {
      const reply = this.#view.streamer();
      const outcome = await runTurn(this.session, content, {
        signal: this.signal(),
        stream: this.session.canStream,
        waiting: () => this.#view.thinking(),
        onText: (text) => reply.write(text),
      });
      await this.#view.outcome(outcome, started, reply);
    } finally {
      this.#input.release();
    }
  }

  renderReply(reply: Message): string {
    return this.#view.render(reply);
  }

  showMessages(messages: Message[], waitForMarkdown = true): Promise<void> {
    return this.#view.transcript(messages, waitForMarkdown);
  }

  /** Continues an existing thread (fetched, unless it just was), showing its last messages. */
  async resume(id: string, loaded?: ThreadWithMessages): Promise<void> {
    const thread = await this.session.load(id, this.signal(), loaded);
    const shown = thread.messages.slice(-(this.options.showLast ?? 6));
    this.#view.threadHeader(thread, shown.length);
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
      this.print(`${this.#threads.listing(page.data)}\n`);
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

  suspendWhile<T>(action: () => Promise<T>): Promise<T> {
    return this.#input.suspendWhile(action);
  }

  #promptText(): string {
    return this.#assembler.pending
      ? this.color.dim('... ')
      : `${this.color.cyan.bold('you')} ${this.color.dim('›')} `;
  }

  #prompt() {
    this.#input.prompt(this.#promptText());
  }

  #interrupt() {
    if (this.cancel()) return;
    if (this.#assembler.pending || this.#input.line.length > 0) {
      this.#assembler.reset();
      this.#input.clearLine();
      this.options.output.write('\n');
      this.#prompt();
      return;
    }
    this.options.output.write(`\n${this.color.dim('(To leave, press Ctrl-D or type /exit)')}\n`);
    this.#prompt();
  }
}
