import type { Command } from 'commander';

export interface TopLevelCommand {
  name: string;
  /** Other names it answers to: the same as the full command's, so they work before it is loaded. */
  aliases?: string[];
  summary: string;
  hidden?: boolean;
  /** Loads the module that builds the full command with its verbs. */
  load: () => Promise<{ default: () => Command }>;
}

/** Every top-level command; a module is imported only when its command runs. */
export const COMMANDS: TopLevelCommand[] = [
  {
    name: 'chat',
    summary: 'Chat with the assistant: a REPL on a terminal, line by line from a pipe',
    load: () => import('./chat/index.js'),
  },
  {
    name: 'threads',
    aliases: ['thread'],
    summary: 'List, create, read and message chat threads',
    load: () => import('./threads/index.js'),
  },
  {
    name: 'files',
    aliases: ['file'],
    summary: 'List, inspect, wait for and delete knowledge-base files',
    load: () => import('./files/index.js'),
  },
  {
    name: 'search',
    summary: 'The passages retrieved for a question, ranked, and whether each answers (kb serve)',
    load: () => import('./search/index.js'),
  },
  {
    name: 'users',
    aliases: ['user'],
    summary: 'List the members of the workspace',
    load: () => import('./users/index.js'),
  },
  {
    name: 'webhooks',
    aliases: ['webhook'],
    summary: 'Register webhooks; sign, verify, listen for and forward events',
    load: () => import('./webhooks/index.js'),
  },
  {
    name: 'eval',
    summary: "Regression tests for the assistant's answers: run cases, report which pass",
    load: () => import('./eval/index.js'),
  },
  {
    name: 'auth',
    summary: 'Log in, show status, list and switch profiles, print the token',
    load: () => import('./auth/index.js'),
  },
  { name: 'config', summary: 'Read and change non-secret settings', load: () => import('./config/index.js') },
  {
    name: 'serve',
    summary: 'Run the local implementation of the service',
    load: () => import('./serve/index.js'),
  },
  {
    name: 'demo',
    summary: 'Chat against a throwaway local demo workspace (what `npm start` runs)',
    load: () => import('./demo/index.js'),
  },
  {
    name: 'api',
    summary: 'Call any endpoint: the escape hatch for what the commands do not cover',
    load: () => import('./api/index.js'),
  },
  {
    name: 'completion',
    summary: 'Print the shell completion script for bash, zsh or fish',
    load: () => import('./completion/index.js'),
  },
  {
    name: '__complete',
    summary: 'candidates for shell completion',
    hidden: true,
    load: () => import('./complete/index.js'),
  },
];
