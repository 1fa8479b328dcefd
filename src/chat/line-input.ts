import { createInterface, type Interface } from 'node:readline';
import { enableReverseSearch } from './reverse-search.js';

/** A line as typed: whether it came in a bracketed paste, and whether it was typed while held. */
export interface InputLine {
  line: string;
  pasted: boolean;
  queued: boolean;
  /** Stops what this line starts (a reply): Ctrl-C from the moment Enter was pressed. */
  abort: AbortController;
}

export interface LineInputOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Line editing, history, Tab completion, bracketed paste: only on a terminal. */
  terminal: boolean;
  /** Earlier messages, newest first (Up and Ctrl-R walk them), and where a new one is recorded. */
  history?: { entries: string[]; add(entry: string): void };
  complete: (line: string) => [string[], string] | Promise<[string[], string]>;
  /** Each line, at once, as Enter is pressed (before it is queued). */
  onLine: (line: InputLine) => void;
  onInterrupt: () => void;
  /** Back from Ctrl-Z. */
  onContinue: () => void;
}

/**
 * The REPL's keyboard: node:readline with whole-message history, Tab, Ctrl-R, bracketed paste,
 * and a queue of lines. While held (a reply is on screen), keys are still read — Ctrl-C, and
 * text typed ahead — but nothing is drawn: what was typed is shown on the input line at the
 * next prompt, below the reply, instead of inside it.
 */
export class LineInput {
  readonly #queue: InputLine[] = [];
  readonly #history: string[];
  #rl: Interface | undefined;
  #wake: (() => void) | undefined;
  #closed = false;
  #suspended = false;
  #pasting = false;
  #held = false;

  constructor(private readonly options: LineInputOptions) {
    this.#history = [...(options.history?.entries ?? [])];
  }

  /** One history entry per message, however many lines it took: Up recalls it whole. */
  remember(message: string): void {
    if (!message.trim()) return;
    const existing = this.#history.indexOf(message);
    if (existing !== -1) this.#history.splice(existing, 1);
    this.#history.unshift(message);
    this.#history.length = Math.min(this.#history.length, 500);
    this.options.history?.add(message);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** What is typed on the input line so far. */
  get line(): string {
    return this.#rl?.line ?? '';
  }

  open(): void {
    const { options } = this;
    const rl = createInterface({
      input: options.input,
      output: options.terminal ? this.#gated(options.output) : undefined,
      terminal: options.terminal,
      // readline keeps no history of its own (it would keep each line of a multi-line
      // message): Up and Ctrl-R walk the list of whole messages.
      historySize: 0,
      completer: (line: string, callback: (err: null, result: [string[], string]) => void) => {
        void Promise.resolve(options.complete(line)).then((result) => callback(null, result));
      },
      tabSize: 2,
    });
    (rl as unknown as { history: string[] }).history = this.#history;
    this.#rl = rl;
    rl.on('line', (line) => {
      // readline resets its place in the history only when it keeps one itself (historySize > 0):
      // without this, Up after sending a recalled message would recall the one before it.
      (rl as unknown as { historyIndex: number }).historyIndex = -1;
      const item = { line, pasted: this.#pasting, queued: this.#held, abort: new AbortController() };
      options.onLine(item);
      this.#queue.push(item);
      this.#wake?.();
    });
    rl.on('SIGINT', options.onInterrupt);
    // Back from Ctrl-Z: readline paused the input, which would leave nothing to wait for and
    // end the process; prompting again resumes it.
    rl.on('SIGCONT', options.onContinue);
    rl.on('close', () => {
      if (this.#suspended) return;
      this.#closed = true;
      this.#wake?.();
    });
    if (options.terminal) {
      options.input.on('keypress', this.#onKeypress);
      enableReverseSearch(rl, () => !this.#held);
    }
  }

  close(): void {
    const rl = this.#rl;
    if (!rl) return;
    this.options.input.removeListener('keypress', this.#onKeypress);
    rl.close();
    this.#rl = undefined;
  }

  /** Hands the terminal to something else (a picker, an editor), then takes it back. */
  async suspendWhile<T>(action: () => Promise<T>): Promise<T> {
    this.#suspended = true;
    this.close();
    try {
      return await action();
    } finally {
      this.#suspended = false;
      this.open();
    }
  }

  /** Shows `text` as the prompt, with what was typed ahead after it, the cursor where it was. */
  prompt(text: string): void {
    const rl = this.#rl;
    if (!rl || this.#closed) return;
    rl.setPrompt(text);
    // Whatever readline drew while held was not shown: the prompt starts on a fresh line.
    (rl as unknown as { prevRows: number }).prevRows = 0;
    rl.prompt(true);
  }

  /** Redraws the prompt and the line (after text was printed above it). */
  redraw(): void {
    this.#rl?.prompt(true);
  }

  /** Empties the input line (Ctrl-C on a line being typed). */
  clearLine(): void {
    this.#rl?.write(null, { ctrl: true, name: 'u' });
  }

  /** While a reply is on screen: keys are read, not drawn; lines entered are queued. */
  hold(): void {
    this.#held = true;
  }

  release(): void {
    this.#held = false;
  }

  /** The next line, in the order typed; undefined once the input ends. */
  async next(): Promise<InputLine | undefined> {
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

  /** The terminal as readline sees it: the same, except that nothing is drawn while held. */
  #gated(output: NodeJS.WritableStream): NodeJS.WritableStream {
    const held = () => this.#held;
    return new Proxy(output, {
      get(target, property) {
        if (property === 'write')
          return (...args: Parameters<NodeJS.WritableStream['write']>) =>
            held() ? true : (target.write as (...a: unknown[]) => boolean)(...args);
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  readonly #onKeypress = (_: unknown, key: { name?: string } | undefined) => {
    if (key?.name === 'paste-start') this.#pasting = true;
    else if (key?.name === 'paste-end') this.#pasting = false;
  };
}
