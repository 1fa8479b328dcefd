import type { ChalkInstance } from 'chalk';
import type { Thread } from '../api/types.js';
import { sanitizeField } from '../util/sanitize.js';
import type { ChatClient } from './session.js';

/** How long the threads listed for Tab are reused. */
const CACHE_MS = 30_000;

/** Tab after `/switch ` or `/open `: thread ids, from a list fetched at most every 30 s. */
export class ThreadCompleter {
  #cache: { at: number; threads: Thread[] } | undefined;

  constructor(
    private readonly client: ChatClient,
    private readonly currentId: () => string | undefined,
    private readonly color: ChalkInstance,
  ) {}

  /**
   * The one id that starts with what was typed, completed; several are handed to `show` as a
   * listing with their titles (readline then redraws the line).
   */
  async complete(line: string, show: (listing: string) => void): Promise<[string[], string]> {
    const [command, typed = ''] = line.split(/\s+/, 2);
    try {
      if (!this.#cache || Date.now() - this.#cache.at > CACHE_MS)
        this.#cache = { at: Date.now(), threads: (await this.client.threads.list({ limit: 100 })).data };
    } catch {
      return [[], line];
    }
    const matches = this.#cache.threads.filter((t) => t.id.startsWith(typed));
    if (matches.length === 1) return [[`${command} ${matches[0]!.id} `], line];
    if (matches.length > 1) show(`\n${this.listing(matches, true)}\n`);
    return [[], line];
  }

  /** Threads one per line, the current one marked; titles dimmed when `dimTitles`. */
  listing(threads: Thread[], dimTitles = false): string {
    const current = this.currentId();
    return threads
      .map((t) => {
        const title = sanitizeField(t.title);
        return `${t.id === current ? '● ' : '  '}${t.id}  ${dimTitles ? this.color.dim(title) : `${title}  ${t.status}`}`;
      })
      .join('\n');
  }
}
