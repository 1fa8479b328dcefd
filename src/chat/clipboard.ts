import { spawn } from 'node:child_process';
import { onPath } from '../util/on-path.js';

/** A clipboard program, and when it applies. */
interface Tool {
  command: string;
  args: string[];
  when: (env: NodeJS.ProcessEnv) => boolean;
}

const TOOLS: Tool[] = [
  { command: 'wl-copy', args: [], when: (env) => Boolean(env.WAYLAND_DISPLAY) },
  { command: 'xclip', args: ['-selection', 'clipboard'], when: (env) => Boolean(env.DISPLAY) },
  { command: 'xsel', args: ['--clipboard', '--input'], when: (env) => Boolean(env.DISPLAY) },
  { command: 'pbcopy', args: [], when: () => process.platform === 'darwin' },
  { command: 'clip.exe', args: [], when: () => true },
];

/**
 * Copies `text` with the first clipboard program that applies here (wl-copy, xclip, xsel,
 * pbcopy, clip.exe); resolves with its name, or undefined when there is none or it failed.
 */
export async function copyWithTool(text: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const tool of TOOLS) {
    if (!tool.when(env) || !onPath(tool.command, env)) continue;
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn(tool.command, tool.args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('error', () => resolve(false));
      child.on('close', (code) => resolve(code === 0));
      child.stdin.on('error', () => {});
      child.stdin.end(text);
    });
    if (ok) return tool.command;
  }
  return undefined;
}

/**
 * What to say when no clipboard program applied: a program that is installed but cannot work
 * here (xsel without a display, over SSH) is named, rather than suggested again.
 */
export function clipboardAdvice(env: NodeJS.ProcessEnv): string {
  const idle = TOOLS.find((t) => !t.when(env) && onPath(t.command, env) && t.command !== 'clip.exe');
  if (idle)
    return `${idle.command} is installed but has no display to copy to (${idle.command === 'wl-copy' ? 'WAYLAND_DISPLAY' : 'DISPLAY'} is not set; over SSH, use a terminal that allows OSC 52)`;
  return 'your terminal does not allow it: install wl-copy, xclip or xsel';
}

/** The last fenced code block of a Markdown text. */
export function lastCodeBlock(markdown: string): string | undefined {
  const blocks = [...markdown.matchAll(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1\s*$/gm)];
  return blocks.at(-1)?.[2]?.replace(/\n$/, '');
}
