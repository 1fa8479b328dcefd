import { execFileSync } from 'node:child_process';
import { BIN } from './cli.js';

let sessions = 0;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The shell words that run kb with `args`. */
export function kbCommand(args: string[]): string {
  return [process.execPath, BIN, ...args].map(quote).join(' ');
}

/** kb running in a real terminal (a detached tmux session); `exit=N` is shown when it ends. */
export function kbInTmux(
  args: string[],
  vars: NodeJS.ProcessEnv,
  size = { columns: 100, rows: 40 },
  cwd = process.cwd(),
) {
  return inTmux(`${kbCommand(args)}; echo "exit=$?"; sleep 60`, vars, size, cwd);
}

/** An interactive bash (with job control) in a real terminal, for what needs a shell: Ctrl-Z, fg. */
export function shellInTmux(vars: NodeJS.ProcessEnv, size = { columns: 100, rows: 40 }) {
  return inTmux('bash --norc --noprofile -i', { ...vars, PS1: '$ ' }, size);
}

function inTmux(
  command: string,
  vars: NodeJS.ProcessEnv,
  size: { columns: number; rows: number },
  cwd = process.cwd(),
) {
  const session = `kb-test-${process.pid}-${sessions++}`;
  const tmux = (...a: string[]) => execFileSync('tmux', a, { encoding: 'utf8' });
  const exports = Object.entries(vars)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${quote(String(v))}`)
    .join(' ');
  // A tmux server whose last session another test just closed may be exiting: start again.
  const start = (...a: string[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return tmux(...a);
      } catch (err) {
        if (attempt >= 3 || !String((err as Error).message).includes('server exited unexpectedly')) throw err;
        execFileSync('sleep', ['0.2']);
      }
    }
  };
  start(
    'new-session',
    '-d',
    '-s',
    session,
    '-c',
    cwd,
    '-x',
    String(size.columns),
    '-y',
    String(size.rows),
    `env -i ${exports} ${command}`,
  );
  /** The screen as text; with `escapes`, with the colour and attribute sequences kb drew. */
  const screen = (escapes = false) =>
    tmux('capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-t', session);
  return {
    screen,
    resize: (columns: number, rows = size.rows) =>
      void tmux('resize-window', '-t', session, '-x', String(columns), '-y', String(rows)),
    keys: (...keys: string[]) => void tmux('send-keys', '-t', session, ...keys),
    /** Pastes `text` as a terminal does (bracketed, when the program asked for it). */
    paste(text: string) {
      tmux('set-buffer', text);
      tmux('paste-buffer', '-p', '-t', session);
    },
    async waitFor(text: string | RegExp, ms = 10_000): Promise<string> {
      const end = Date.now() + ms;
      for (;;) {
        const s = screen();
        if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
        if (Date.now() > end) throw new Error(`screen never showed ${text}:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close() {
      try {
        tmux('kill-session', '-t', session);
      } catch {
        // already gone
      }
    },
  };
}
