export type SignalName = 'SIGINT' | 'SIGTERM';
export type SignalHandler = (signal: SignalName) => void;

/** The exit code for a process ended by `signal`, as shells report it (128 + the signal number). */
export function signalExitCode(signal: SignalName): number {
  return signal === 'SIGINT' ? 130 : 143;
}

/**
 * The one owner of SIGINT and SIGTERM. main installs it once; a command that needs its own
 * behaviour (the chat REPL, a server, a listener) traps the signals while it runs. The newest
 * trap decides; without one, the fallback given by main does.
 */
export class Signals {
  readonly #traps: SignalHandler[] = [];

  constructor(private readonly fallback: SignalHandler = () => {}) {}

  /** `handler` decides what SIGINT and SIGTERM do until the returned function is called. */
  trap(handler: SignalHandler): () => void {
    this.#traps.push(handler);
    return () => {
      const index = this.#traps.lastIndexOf(handler);
      if (index !== -1) this.#traps.splice(index, 1);
    };
  }

  deliver(signal: SignalName): void {
    (this.#traps.at(-1) ?? this.fallback)(signal);
  }

  /**
   * Until the returned function is called, a stop kb sends itself stops its whole process group:
   * readline, reading a terminal key by key, answers Ctrl-Z by stopping kb alone, and under
   * `npx kb chat` npm and the shell that started kb would keep the terminal, the user's shell
   * giving no prompt back. The group is what the user's shell made of the command line: kb alone
   * when it was started directly.
   */
  stopGroupOnSuspend(): () => void {
    if (process.platform === 'win32') return () => {};
    const onStop = () => {
      process.removeListener('SIGTSTP', onStop);
      process.once('SIGCONT', () => process.on('SIGTSTP', onStop));
      process.kill(0, 'SIGTSTP');
    };
    process.on('SIGTSTP', onStop);
    return () => process.removeListener('SIGTSTP', onStop);
  }

  /** Routes the process's signals here; called once, by main. */
  listen(): this {
    process.on('SIGINT', () => this.deliver('SIGINT'));
    process.on('SIGTERM', () => this.deliver('SIGTERM'));
    return this;
  }
}
