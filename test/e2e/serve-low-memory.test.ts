import { describe, expect, it } from 'vitest';
import { runKb } from '../helpers/cli.js';
import { docsFolder } from '../helpers/documents.js';
import { startServeProcess } from '../helpers/serve-process.js';

const KEY = 'kb_low_memory_test';

describe('kb serve --low-memory', () => {
  it('indexes and answers as without it', async () => {
    const { dir, docs } = docsFolder({
      'backups.md': '# Backups\n\nBackups run nightly at 2 am and are kept for 30 days.',
    });
    const serve = await startServeProcess(dir, ['--docs', docs, '--index-delay', '0', '--low-memory'], {
      KB_SERVE_API_KEYS: `default:${KEY}`,
    });
    try {
      await expect.poll(serve.stderr, { timeout: 15_000 }).toMatch(/"event":"indexed"/);
      const env = { KB_BASE_URL: serve.url, KB_API_KEY: KEY };
      const thread = (await runKb(['threads', 'create', '--ids'], { env, configDir: dir })).stdout.trim();
      const res = await runKb(['threads', 'send', thread, 'How long are backups kept?', '--json'], {
        env,
        configDir: dir,
      });
      expect(res.code).toBe(0);
      const reply = JSON.parse(res.stdout).aiResponse as { content: string; sources: string[] };
      expect(reply.sources).toEqual(['backups.md']);
      expect(reply.content).toMatch(/30 days/);
    } finally {
      serve.child.kill('SIGTERM');
    }
  });
});
