import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

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

/** The last fenced code block of a Markdown text. */
export function lastCodeBlock(markdown: string): string | undefined {
  const blocks = [...markdown.matchAll(/^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1\s*$/gm)];
  return blocks.at(-1)?.[2]?.replace(/\n$/, '');
}
