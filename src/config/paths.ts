import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$KB_CONFIG_DIR`, else `$XDG_CONFIG_HOME/kb`, else `~/.config/kb`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KB_CONFIG_DIR) return env.KB_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'kb');
}

/** REPL history and other state: `$KB_CONFIG_DIR` when set (tests), else `$XDG_STATE_HOME/kb`. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KB_CONFIG_DIR) return env.KB_CONFIG_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'kb');
}

export const CONFIG_FILE = 'config.json';
