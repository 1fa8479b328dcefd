import type { Interface } from 'node:readline';

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

type TtyWrite = (s: string | null | undefined, key?: Key) => void;

/**
 * readline's per-key handler, `_ttyWrite`: node keeps it patchable for compatibility (its
 * internal symbol only forwards to it). Internal all the same, so it is checked, not assumed.
 */
function hasTtyWrite(rl: Interface): rl is Interface & { _ttyWrite: TtyWrite } {
  return typeof (rl as unknown as { _ttyWrite?: unknown })._ttyWrite === 'function';
}

/**
 * Ctrl-R history search, as in bash: type to find the newest matching entry, Ctrl-R again for
 * older ones, Enter to send it, Esc or Ctrl-G to give up, any other key to edit the match.
 * node:readline has no such search; when its internals differ this does nothing. `allowed`:
 * whether Ctrl-R starts a search now (not while a reply is on screen).
 */
export function enableReverseSearch(rl: Interface, allowed: () => boolean = () => true): boolean {
  if (!hasTtyWrite(rl)) return false;
  const target = rl as Interface & { _ttyWrite: TtyWrite; history: string[] };
  const original = target._ttyWrite.bind(rl);
  let search: { query: string; index: number; savedLine: string; savedPrompt: string } | undefined;

  const setLine = (text: string) => {
    original(null, { ctrl: true, name: 'e' });
    original(null, { ctrl: true, name: 'u' });
    if (text) original(text);
  };
  const render = () => {
    if (!search) return;
    const match = search.index >= 0 ? (target.history[search.index] ?? '') : '';
    rl.setPrompt(
      `(reverse-i-search)\`${search.query}'${search.index < 0 && search.query ? ' (no match)' : ''}: `,
    );
    setLine(match);
    rl.prompt(true);
  };
  const find = (from: number) => {
    if (!search) return;
    const start = Math.max(0, from);
    const found = search.query
      ? target.history.findIndex((entry, i) => i >= start && entry.includes(search!.query))
      : -1;
    if (found >= 0 || from === 0) search.index = found;
    render();
  };
  const finish = (line: string | undefined) => {
    if (!search) return;
    const { savedPrompt, savedLine } = search;
    search = undefined;
    rl.setPrompt(savedPrompt);
    setLine(line ?? savedLine);
    rl.prompt(true);
  };

  target._ttyWrite = (s, key) => {
    if (!search) {
      if (key?.ctrl && key.name === 'r' && allowed()) {
        search = { query: '', index: -1, savedLine: target.line, savedPrompt: rl.getPrompt() };
        render();
        return;
      }
      return original(s, key);
    }
    if (key?.ctrl && key.name === 'r') return find(search.index + 1);
    if (key?.name === 'backspace') {
      search.query = search.query.slice(0, -1);
      return find(0);
    }
    if (key?.name === 'escape' || (key?.ctrl && (key.name === 'g' || key.name === 'c')))
      return finish(undefined);
    if (typeof s === 'string' && s.length === 1 && s >= ' ' && !key?.ctrl && !key?.meta) {
      search.query += s;
      return find(Math.max(search.index, 0));
    }
    finish(search.index >= 0 ? (target.history[search.index] ?? '') : undefined);
    return original(s, key);
  };
  return true;
}
