import { closeSync, constants, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { refuseLink } from '../config/links.js';
import { stateDir } from '../config/paths.js';
import { writeFileAtomic } from '../util/write-atomic.js';
import type { ChatClient } from './session.js';

/**
 * The thread a profile used last (sent a message to), for `kb chat -c`: the service lists
 * threads by creation, which is not what "continue" means. A small 0600 file in the state
 * directory, replaced whole; never followed through a link.
 */
export class LastThread {
  constructor(readonly path: string) {}

  read(): string | undefined {
    try {
      refuseLink(this.path, 'state file');
      const fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const id = readFileSync(fd, 'utf8').trim();
        return /^[\w.:-]{1,200}$/.test(id) ? id : undefined;
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined;
    }
  }

  save(id: string): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      writeFileAtomic(this.path, `${id}\n`);
    } catch {
      // Only `kb chat -c` is less accurate without it.
    }
  }
}

/** Where a profile's last thread is kept: every command that sends a message marks it, `kb chat -c` reads it. */
export function lastThreadFile(env: NodeJS.ProcessEnv, profile: string): string {
  return join(stateDir(env), `last-thread-${profile.replace(/[^\w.-]/g, '_')}`);
}

/** The same client, calling `used` with the thread of each message sent. */
export function remembering(client: ChatClient, used: (threadId: string) => void): ChatClient {
  return {
    threads: {
      create: (params, signal) => client.threads.create(params, signal),
      get: (id, signal) => client.threads.get(id, signal),
      list: (params) => client.threads.list(params),
      update: client.threads.update?.bind(client.threads),
      cancelGeneration: client.threads.cancelGeneration?.bind(client.threads),
      stream:
        client.threads.stream &&
        async function* (id, params) {
          for await (const event of client.threads.stream!(id, params)) {
            if (event.type === 'completed' || event.type === 'cancelled') used(id);
            yield event;
          }
        },
      send: async (id, content, signal) => {
        const exchange = await client.threads.send(id, content, signal);
        used(id);
        return exchange;
      },
    },
    files: client.files,
  };
}
